import Core
import Model
import Store

/// `/api/v1/mobile-apps`, `/api/v1/mobile-apps/{id}`, key rotation and analytics.
enum MobileAppOperations {
    static func list(_ call: ManagementCall, _ reader: any CatalogReading & KeyReading, _ env: ManagementEnvironment)
        throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let (items, next) = page.page(try reader.apps()) { $0.id }
        var data: [JSONValue] = []
        for app in items { data.append(try json(app, reader, now: call.now)) }
        return ManagementAnswer(200, ResourceJSON.page(data, nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any CatalogReading & KeyReading, _ env: ManagementEnvironment)
        throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, try json(try existing(call.parameter("id"), reader), reader, now: call.now))
    }

    /// 201 with the app and its first publishable key, shown this once.
    static func create(
        _ call: ManagementCall, _ tx: any CatalogWriting & LinkReading & KeyWriting, _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        let id = Identifier.make(Identifier.mobileAppPrefix)
        let app = try CatalogWriter.saveApp(
            try MobileAppInput.decode(call.bodyObject, id: id, existing: nil, now: call.now), tx)
        let (key, _) = try CatalogWriter.issuePublishableKey(app: id, now: call.now, tx)
        let base = try json(app, tx, now: call.now)
        return ManagementAnswer(
            201, with(base, ("publishableKey", .string(key))), replayBody: with(base, ("publishableKey", .null)))
    }

    static func update(
        _ call: ManagementCall, _ tx: any CatalogWriting & LinkReading & KeyReading, _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        let current = try existing(call.parameter("id"), tx)
        let merged = MergePatch.apply(
            call.body ?? [], to: MobileAppInput.writable(current), nested: MobileAppInput.nested)
        let app = try CatalogWriter.saveApp(
            try MobileAppInput.decode(merged, id: current.id, existing: current, now: call.now), tx)
        return ManagementAnswer(200, try json(app, tx, now: call.now))
    }

    /// Revokes the app's keys, removes it from the association files of its domains,
    /// and turns its links into plain web links: a `link.updated` for each, in the same
    /// transaction, filtered as the deleted app's (the links were its until now: an
    /// endpoint that follows the app learns they no longer open it).
    static func delete(
        _ call: ManagementCall, _ tx: any CatalogWriting & WebhookWriting & TransactionClock,
        _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        let id = try existing(call.parameter("id"), tx).id
        // An app may have many links: an event nobody wants is not built.
        for link in try tx.deleteApp(id) ?? [] {
            try tx.enqueueWebhookEvent(.linkUpdated, appId: id, linkId: link.id) {
                WebhookEvent(type: .linkUpdated, appId: id, linkId: link.id, at: tx.now, data: ResourceJSON.link(link))
            }
        }
        return ManagementAnswer(200, ResourceJSON.deleted("id", id))
    }

    /// A new publishable key; the previous one keeps working for `keyOverlapSeconds`.
    static func rotate(_ call: ManagementCall, _ tx: any CatalogReading & KeyWriting, _ env: ManagementEnvironment)
        throws
        -> ManagementAnswer
    {
        if let body = call.body, !body.isEmpty {
            throw ManagementError.invalid(body[0].0, "is not a known field (this operation takes no body)")
        }
        let app = try existing(call.parameter("id"), tx)
        let (key, record, until) = try CatalogWriter.rotate(app: app, now: call.now, tx)
        let base: [(String, JSONValue)] = [
            ("appId", .string(app.id)), ("publishableKeyId", .string(record.id)), ("hint", .string(record.hint)),
            ("previousKeyExpiresAt", ResourceJSON.time(orNull: until)),
        ]
        return ManagementAnswer(
            200, .object([("publishableKey", .string(key))] + base),
            replayBody: .object([("publishableKey", .null)] + base))
    }

    static let maxAnalyticsDays = 365

    static func analytics(
        _ call: ManagementCall, _ reader: any CatalogReading & AnalyticsReading, _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        let app = try existing(call.parameter("id"), reader)
        let days = try call.query.integer("days", in: 1...maxAnalyticsDays, default: 30)
        let since = call.now - Int64(days) * 86_400_000
        let analytics = try reader.analytics(app: app.id, since: since, recent: AnalyticsJSON.recentEvents)
        return ManagementAnswer(
            200, AnalyticsJSON.render(app: app.id, days: days, since: since, until: call.now, analytics: analytics))
    }

    static func existing(_ id: String, _ reader: any CatalogReading) throws -> MobileApp {
        guard let app = try reader.app(id) else { throw ManagementError.notFound("No Mobile App \(id).") }
        return app
    }

    static func json(_ app: MobileApp, _ reader: any KeyReading, now: Int64) throws -> JSONValue {
        ResourceJSON.app(app, keys: try reader.publishableKeys(app: app.id), now: now)
    }

    private static func with(_ object: JSONValue, _ member: (String, JSONValue)) -> JSONValue {
        var members = object.objectValue ?? []
        members.insert(member, at: 1)
        return .object(members)
    }
}
