import Core
import Model
import Store

/// `/api/v1/links` and `/api/v1/links/{id}`.
enum LinkOperations {
    static func list(_ call: ManagementCall, _ reader: any StoreReader, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let domain = call.query["domain"]
        // One more than asked tells whether another page follows.
        let rows = try reader.links(domain: domain, after: page.cursor, limit: page.limit + 1)
        let items = Array(rows.prefix(page.limit))
        let next = rows.count > page.limit ? items.last?.id : nil
        return ManagementAnswer(200, ResourceJSON.page(items.map(ResourceJSON.link), nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any StoreReader, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, ResourceJSON.link(try existing(call.parameter("id"), reader)))
    }

    static func create(_ call: ManagementCall, _ tx: any StoreTransaction, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let link = try LinkInput.decode(
            call.bodyObject, id: Identifier.make(Identifier.linkPrefix), existing: nil, now: call.now)
        return ManagementAnswer(201, ResourceJSON.link(try CatalogWriter.saveLink(link, tx)))
    }

    static func update(_ call: ManagementCall, _ tx: any StoreTransaction, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let current = try existing(call.parameter("id"), tx)
        let merged = MergePatch.apply(call.body ?? [], to: LinkInput.writable(current), nested: LinkInput.nested)
        let link = try LinkInput.decode(merged, id: current.id, existing: current, now: call.now)
        return ManagementAnswer(200, ResourceJSON.link(try CatalogWriter.saveLink(link, tx)))
    }

    static func delete(_ call: ManagementCall, _ tx: any StoreTransaction, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let id = try existing(call.parameter("id"), tx).id
        _ = try tx.deleteLink(id: id)
        return ManagementAnswer(200, ResourceJSON.deleted("id", id))
    }

    static func existing(_ id: String, _ reader: any StoreReader) throws -> Link {
        guard let link = try reader.link(id: id) else { throw ManagementError.notFound("No link \(id).") }
        return link
    }
}
