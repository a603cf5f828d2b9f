import Core
import Model
import Store

/// `/api/v1/links` and `/api/v1/links/{id}`.
enum LinkOperations {
    static func list(_ call: ManagementCall, _ reader: any LinkReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let domain = call.query["domain"]
        // One more than asked tells whether another page follows.
        let rows: [Link]
        if let tagId = call.query["tagId"] {
            rows = try linksOfTag(tagId, domain: domain, after: page.cursor, limit: page.limit + 1, reader)
        } else {
            rows = try reader.links(domain: domain, after: page.cursor, limit: page.limit + 1)
        }
        let items = Array(rows.prefix(page.limit))
        let next = rows.count > page.limit ? items.last?.id : nil
        return ManagementAnswer(200, ResourceJSON.page(items.map(ResourceJSON.link), nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any LinkReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, ResourceJSON.link(try existing(call.parameter("id"), reader)))
    }

    static func create(
        _ call: ManagementCall, _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock,
        _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        ManagementAnswer(201, ResourceJSON.link(try create(call.bodyObject, now: call.now, tx)))
    }

    /// A new link from the fields of a create (`LinkInput`), stored.
    static func create(
        _ body: JSONValue, now: Int64, _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock
    ) throws -> Link {
        let link = try LinkInput.decode(body, id: Identifier.make(Identifier.linkPrefix), existing: nil, now: now)
        return try CatalogWriter.saveLink(link, tx)
    }

    static func update(
        _ call: ManagementCall, _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock,
        _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        ManagementAnswer(
            200, ResourceJSON.link(try update(call.parameter("id"), patch: call.body ?? [], now: call.now, tx)))
    }

    /// The link `id` with `patch` merged into its writable fields (JSON Merge Patch), stored.
    /// Only what the patch changes is validated (`LinkInput.decode`'s `keepUnchanged`) and
    /// checked against the store (`CatalogWriter.saveLink`'s `previous`): an operator can
    /// always take a link down, whatever rule its other fields would break today.
    static func update(
        _ id: String, patch: [(String, JSONValue)], now: Int64,
        _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock
    ) throws
        -> Link
    {
        let current = try existing(id, tx)
        let merged = MergePatch.apply(patch, to: LinkInput.writable(current), nested: LinkInput.nested)
        let link = try LinkInput.decode(merged, id: current.id, existing: current, now: now, keepUnchanged: true)
        return try CatalogWriter.saveLink(link, tx, previous: current)
    }

    static func delete(
        _ call: ManagementCall, _ tx: any LinkWriting & WebhookWriting & TransactionClock, _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, ResourceJSON.deleted("id", try delete(call.parameter("id"), tx)))
    }

    /// Deletes the link `id` (404 when there is none); returns its id.
    static func delete(_ id: String, _ tx: any LinkWriting & WebhookWriting & TransactionClock) throws -> String {
        let link = try existing(id, tx)
        _ = try tx.deleteLink(id: link.id)
        try tx.enqueueWebhookEvent(
            WebhookEvent(
                type: .linkDeleted, appId: link.mobile?.appId, linkId: link.id, at: tx.now,
                data: ["id": .string(link.id), "domain": .string(link.domain), "key": .string(link.key)]))
        return link.id
    }

    /// The tag's links, of `domain` when given, in id order: up to `limit`.
    static func linksOfTag(_ tagId: String, domain: String?, after: String?, limit: Int, _ reader: any LinkReading)
        throws -> [Link]
    {
        var rows: [Link] = []
        var cursor = after
        while rows.count < limit {
            let batch = try reader.links(tagId: tagId, after: cursor, limit: 200)
            rows += batch.filter { domain == nil || $0.domain == domain }
            guard batch.count == 200, let last = batch.last else { break }
            cursor = last.id
        }
        return Array(rows.prefix(limit))
    }

    /// The link `id`, or with `ext_<externalId>` the link of that external id (issue 35).
    static func existing(_ id: String, _ reader: any LinkReading) throws -> Link {
        let link =
            id.hasPrefix(externalPrefix)
            ? try reader.link(externalId: String(id.dropFirst(externalPrefix.count))) : try reader.link(id: id)
        guard let link else { throw ManagementError.notFound("No link \(id).") }
        return link
    }

    static let externalPrefix = "ext_"
}
