import Core
import Model

/// `StoreReader` over one PostgreSQL connection: the SQL of every read.
///
/// Used as is by the writer's transaction (so reads see the batch's earlier writes)
/// and subclassed by `PGReader`, which answers domains, apps and links from its
/// caches first. Mirrors `SQLiteQueries` method for method, on the PostgreSQL schema
/// (`PGSchemaV1`); statements are prepared once per connection by name (`pgq_*`).
/// The methods a subclass overrides live in this class body; the rest are in
/// extensions by concern (PGQueries+Catalog, +Links, +Keys, +Events).
///
/// Orders that callers see (pages, lists) are byte orders, as in SQLite: text sort
/// keys are compared `COLLATE "C"` whatever the database's collation.
class PGQueries: StoreReader {
    private let fixed: PGConnection

    init(db: PGConnection) {
        self.fixed = db
    }

    /// The connection the queries run on. The writer's transaction keeps one; a loop's
    /// reader (`PGReader`) swaps in a new one when it broke, and fails fast meanwhile.
    var db: PGConnection {
        get throws(StoreError) { fixed }
    }

    /// Only readers with a link cache count link changes (`PGReader` overrides this).
    func linksVersion(host: String) -> UInt64? { nil }

    /// Called first by every query method: the writer's transaction writes the rows it
    /// still holds in memory (deferred inserts), so its reads see its writes.
    func willQuery() throws(StoreError) {}

    /// Called before reading `click_counts` (the writer's transaction first writes what
    /// its batch still holds in memory).
    func willReadCounts() throws(StoreError) {}

    func loadCatalog() throws(StoreError) -> CatalogSnapshot {
        CatalogSnapshot(domains: try domains(), apps: try apps(), inAppEscapes: try storedInAppEscapeSettings())
    }

    /// The workspace's switches of the in-app escapes; a loop's reader answers from its snapshot.
    func inAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings { try storedInAppEscapeSettings() }

    // MARK: overridden by PGReader (caches)

    func domain(_ hostname: String) throws(StoreError) -> Domain? {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        return try Self.first(db.run("pgq_domain", Self.selectDomain, p), Self.decodeDomain)
    }

    func domains() throws(StoreError) -> [Domain] {
        try willQuery()
        return try Self.all(db.run("pgq_domains", Self.selectDomains), Self.decodeDomain)
    }

    func domain(servedAt host: String) throws(StoreError) -> Domain? {
        try willQuery()
        var p = PGParams()
        p.text(host)
        return try Self.first(db.run("pgq_served_domain", Self.selectServedDomain, p), Self.decodeDomain)
    }

    func app(_ id: String) throws(StoreError) -> MobileApp? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        guard var app = try Self.first(db.run("pgq_app", Self.selectApp, p), Self.decodeApp) else { return nil }
        app.domains = try appDomains(id)
        return app
    }

    func apps() throws(StoreError) -> [MobileApp] {
        try willQuery()
        let apps = try Self.all(db.run("pgq_apps", Self.selectApps), Self.decodeApp)
        var byApp: [String: [String]] = [:]
        let rows = try db.run("pgq_all_app_domains", Self.selectAllAppDomains)
        for r in 0..<rows.rowCount { byApp[rows.text(r, 0), default: []].append(rows.text(r, 1)) }
        return apps.map { app in
            var app = app
            app.domains = byApp[app.id] ?? []
            return app
        }
    }

    func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp] {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        var result: [MobileApp] = []
        for var app in try Self.all(db.run("pgq_apps_attached", Self.selectAppsAttached, p), Self.decodeApp) {
            app.domains = try appDomains(app.id)
            result.append(app)
        }
        return result
    }

    func link(host: String, key: String) throws(StoreError) -> Link? {
        try willQuery()
        var p = PGParams()
        p.text(host)
        p.text(key)
        return try Self.first(db.run("pgq_link_by_key", Self.selectLinkByKey, p), Self.decodeLink)
    }

    // MARK: overridden by PGTransaction (remembers a free key)

    /// The app's event with `eventId`, else the one whose own eventId is the key (an
    /// event whose Idempotency-Key was its eventId, decision 0008), else the one holding
    /// the key's hash: SQLite's three lookups in that order, in one round trip when none
    /// is found (the keys alone), one more per event read.
    func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8]) throws(StoreError)
        -> OpenEvent?
    {
        try willQuery()
        var p = PGParams()
        p.text(app)
        p.bytes(Array(eventId.utf8))
        p.bytes(Array(idempotencyKey.utf8))
        p.bytes(keyHash)
        let keys = try db.run("pgq_open_idempotency_keys", Self.selectIdempotencyKeys, p)
        for r in 0..<keys.rowCount {
            if let event = try event(id: keys.text(r, 1), at: keys.int(r, 2), ownKey: keys.int(r, 0) == 2) {
                return event
            }
        }
        return nil
    }

    // MARK: row helpers

    static func first<T>(_ rows: PGResult, _ decode: (PGResult, Int) throws(StoreError) -> T) throws(StoreError) -> T? {
        rows.rowCount > 0 ? try decode(rows, 0) : nil
    }

    static func all<T>(_ rows: PGResult, _ decode: (PGResult, Int) throws(StoreError) -> T) throws(StoreError) -> [T] {
        var out: [T] = []
        out.reserveCapacity(rows.rowCount)
        for r in 0..<rows.rowCount { out.append(try decode(rows, r)) }
        return out
    }
}
