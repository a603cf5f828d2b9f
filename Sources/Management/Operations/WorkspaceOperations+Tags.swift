import Core
import Model
import Store

/// `/api/v1/tags`'s writes for the console: the same rules (`TagInput`, a name unique
/// ignoring case) and the same refusals.
extension WorkspaceOperations {
    /// `POST /api/v1/tags` with `fields` as its body.
    public static func createTag(_ fields: [(String, JSONValue)], now: Int64, _ tx: any LinkWriting) throws -> Tag {
        try refusing {
            let tag = try TagInput.decode(
                .object(fields), id: Identifier.make(Identifier.tagPrefix), existing: nil, now: now)
            return try TagOperations.save(tag, tx)
        }
    }

    /// `PATCH /api/v1/tags/{id}` with `patch` as its body (JSON Merge Patch).
    public static func updateTag(_ id: String, patch: [(String, JSONValue)], now: Int64, _ tx: any LinkWriting)
        throws -> Tag
    {
        try refusing {
            let current = try TagOperations.existing(id, tx)
            let merged = MergePatch.apply(patch, to: TagInput.writable(current), nested: [])
            return try TagOperations.save(try TagInput.decode(merged, id: id, existing: current, now: now), tx)
        }
    }

    /// `DELETE /api/v1/tags/{id}`: the tag leaves its links.
    public static func deleteTag(_ id: String, _ tx: any LinkWriting) throws {
        try refusing {
            let tag = try TagOperations.existing(id, tx)
            _ = try tx.deleteTag(id: tag.id)
        }
    }
}
