import Core
import Model
import Store

/// The API's JSON for each resource: the writable fields (what a create states and a
/// PATCH merges into) plus the read-only ones. Timestamps are ISO 8601 UTC.
enum ResourceJSON {
    static func time(_ ms: Int64) -> JSONValue { .string(Timestamp.format(milliseconds: ms)) }
    static func time(orNull ms: Int64?) -> JSONValue { ms.map(time) ?? .null }

    static func domain(_ d: Domain, httpsActive: Bool, certificate: DomainCertificate = DomainCertificate())
        -> JSONValue
    {
        var members = DomainInput.writable(d).objectValue ?? []
        members.insert(("httpsActive", .bool(httpsActive)), at: 2)
        members.insert(("certificate", certificate.json), at: 3)
        members.append(("createdAt", time(d.createdAt)))
        members.append(("updatedAt", time(d.updatedAt)))
        return .object(members)
    }

    /// `keys`: the app's publishable keys; only the usable ones are listed, by hint.
    static func app(_ app: MobileApp, keys: [PublishableKeyRecord], now: Int64) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(app.id))]
        members.append(contentsOf: MobileAppInput.writable(app).objectValue ?? [])
        members.append(("publishableKeys", .array(keys.filter { $0.isUsable(at: now) }.map(publishableKey))))
        members.append(("createdAt", time(app.createdAt)))
        members.append(("updatedAt", time(app.updatedAt)))
        return .object(members)
    }

    static func publishableKey(_ k: PublishableKeyRecord) -> JSONValue {
        .object([
            ("id", .string(k.id)), ("hint", .string(k.hint)), ("createdAt", time(k.createdAt)),
            ("expiresAt", time(orNull: k.expiresAt)),
        ])
    }

    static func link(_ link: Link) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(link.id)), ("shortUrl", .string(link.shortUrl))]
        members.append(contentsOf: LinkInput.writable(link).objectValue ?? [])
        members.append(("createdAt", time(link.createdAt)))
        members.append(("updatedAt", time(link.updatedAt)))
        return .object(members)
    }

    /// A page of a list: `{"data":[...],"nextCursor":...}`.
    static func page(_ items: [JSONValue], nextCursor: String?) -> JSONValue {
        .object([("data", .array(items)), ("nextCursor", .string(orNull: nextCursor))])
    }

    static func deleted(_ idField: String, _ id: String) -> JSONValue {
        .object([(idField, .string(id)), ("deleted", .bool(true))])
    }
}
