import Core
import Model
import Store

/// `/api/v1/tags` and `/api/v1/tags/{id}` (issue 35): the workspace's labels of links,
/// under the links' scopes. A name is unique ignoring case (409 `tag_name_taken`);
/// deleting a tag takes it off its links.
enum TagOperations {
    static func list(_ call: ManagementCall, _ reader: any LinkReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let (items, next) = page.page(try reader.tags()) { $0.id }
        return ManagementAnswer(200, ResourceJSON.page(items.map(TagInput.json), nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any LinkReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, TagInput.json(try existing(call.parameter("id"), reader)))
    }

    static func create(_ call: ManagementCall, _ tx: any LinkWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let tag = try TagInput.decode(
            call.bodyObject, id: Identifier.make(Identifier.tagPrefix), existing: nil, now: call.now)
        return ManagementAnswer(201, TagInput.json(try save(tag, tx)))
    }

    static func update(_ call: ManagementCall, _ tx: any LinkWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let current = try existing(call.parameter("id"), tx)
        let merged = MergePatch.apply(call.body ?? [], to: TagInput.writable(current), nested: [])
        let tag = try TagInput.decode(merged, id: current.id, existing: current, now: call.now)
        return ManagementAnswer(200, TagInput.json(try save(tag, tx)))
    }

    static func delete(_ call: ManagementCall, _ tx: any LinkWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let tag = try existing(call.parameter("id"), tx)
        _ = try tx.deleteTag(id: tag.id)
        return ManagementAnswer(200, ResourceJSON.deleted("id", tag.id))
    }

    /// Stores `tag` unless another tag has its name ignoring case.
    static func save(_ tag: Tag, _ tx: any LinkWriting) throws -> Tag {
        let key = tag.name.lowercased()
        if let other = try tx.tags().first(where: { $0.name.lowercased() == key && $0.id != tag.id }) {
            throw ManagementError.tagNameTaken(tagId: other.id)
        }
        try tx.putTag(tag)
        return tag
    }

    static func existing(_ id: String, _ reader: any LinkReading) throws -> Tag {
        guard let tag = try reader.tag(id: id) else { throw ManagementError.notFound("No tag \(id).") }
        return tag
    }
}
