import Core
import Model
import Store

/// `POST`, `PATCH` and `DELETE /api/v1/links/bulk` (issue 35): up to 100 links a call, in
/// one transaction, with an answer per item. Each item is all or nothing: a refused item
/// writes nothing (an item refused after its write, by the association file's size, is
/// undone before the next), and does not stop the others. A failure of the store itself
/// fails the whole call, which then writes nothing. `Idempotency-Key` replays the answer,
/// as for every write.
enum LinkBulkOperations {
    static let maxItems = 100

    typealias Tx = any CatalogReading & LinkWriting & WebhookWriting & TransactionClock

    static func create(_ call: ManagementCall, _ tx: any StoreTransaction, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        try answer(items(call, "links")) { item in
            let link = try LinkInput.decode(
                item, id: Identifier.make(Identifier.linkPrefix), existing: nil, now: call.now)
            do {
                return (201, [("link", ResourceJSON.link(try CatalogWriter.saveLink(link, tx)))])
            } catch let error as ManagementError {
                if try tx.link(id: link.id) != nil { _ = try tx.deleteLink(id: link.id) }
                throw error
            }
        }
    }

    static func update(_ call: ManagementCall, _ tx: any StoreTransaction, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        try answer(items(call, "links")) { item in
            guard case .object(let members) = item else { throw ManagementError.invalid("", "must be a JSON object") }
            guard case .string(let id)? = item["id"] else {
                throw ManagementError.invalid("id", "is required: the link's id, or ext_ and its externalId")
            }
            let current = try LinkOperations.existing(id, tx)
            do {
                let link = try LinkOperations.update(
                    current.id, patch: members.filter { $0.0 != "id" }, now: call.now, tx)
                return (200, [("link", ResourceJSON.link(link))])
            } catch let error as ManagementError {
                if let now = try tx.link(id: current.id), now != current { try tx.putLink(current) }
                throw error
            }
        }
    }

    static func delete(_ call: ManagementCall, _ tx: any StoreTransaction, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        try answer(items(call, "ids")) { item in
            guard case .string(let id) = item else {
                throw ManagementError.invalid("", "must be a link's id, or ext_ and its externalId")
            }
            return (200, [("id", .string(try LinkOperations.delete(id, tx))), ("deleted", .bool(true))])
        }
    }

    /// The body's list `name`: 1 to `maxItems` items (else the whole call is refused).
    static func items(_ call: ManagementCall, _ name: String) throws -> [JSONValue] {
        var problems = FieldProblems()
        guard var input = InputObject(call.bodyObject, path: "", problems: &problems) else {
            throw ManagementError.invalid(problems.list)
        }
        let items = input.array(name, maxItems: maxItems, problems: &problems)
        input.reportUnread(problems: &problems)
        try problems.check()
        guard let items, !items.isEmpty else { throw ManagementError.invalid(name, "must hold 1 to \(maxItems) items") }
        return items
    }

    /// `{"data": [{"index", "status", "link" | "id" and "deleted" | "error"}]}` in the items'
    /// order; 200 whatever the items' own statuses.
    static func answer(_ items: [JSONValue], _ run: (JSONValue) throws -> (Int, [(String, JSONValue)])) throws
        -> ManagementAnswer
    {
        var out: [JSONValue] = []
        for (i, item) in items.enumerated() {
            var members: [(String, JSONValue)] = [("index", .int(Int64(i)))]
            do {
                let (status, body) = try run(item)
                members.append(("status", .int(Int64(status))))
                members += body
            } catch let error as ManagementError {
                guard error.status < 500 else { throw error }
                var envelope: [(String, JSONValue)] = [
                    ("code", .string(error.code)), ("message", .string(error.message)),
                ]
                if let details = error.details { envelope.append(("details", details)) }
                members.append(("status", .int(Int64(error.status))))
                members.append(("error", .object(envelope)))
            }
            out.append(.object(members))
        }
        return ManagementAnswer(200, .object([("data", .array(out))]))
    }
}
