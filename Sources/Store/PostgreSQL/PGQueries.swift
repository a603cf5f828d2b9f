import Model

/// `StoreReader` over one PostgreSQL connection: the SQL of every read.
///
/// Used as is by the writer's transaction (so reads see the batch's earlier writes)
/// and subclassed by `PGReader`, which answers domains, apps and links from its
/// caches first. Mirrors `SQLiteQueries` method for method, on the PostgreSQL schema
/// (`PGSchemaV1`); statements are prepared once per connection by name.
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

    /// Called before reading `click_counts` (the writer's transaction first writes what
    /// its batch still holds in memory).
    func willReadCounts() throws(StoreError) {}

    func loadCatalog() throws(StoreError) -> CatalogSnapshot {
        CatalogSnapshot(domains: try domains(), apps: try apps())
    }

    // The StoreReader methods follow in extensions by concern (PGQueries+*.swift); the
    // ones `PGReader` overrides live here.

    func domain(_ hostname: String) throws(StoreError) -> Domain? { fatalError("PGQueries: not implemented yet") }
    func domains() throws(StoreError) -> [Domain] { fatalError("PGQueries: not implemented yet") }
    func app(_ id: String) throws(StoreError) -> MobileApp? { fatalError("PGQueries: not implemented yet") }
    func apps() throws(StoreError) -> [MobileApp] { fatalError("PGQueries: not implemented yet") }
    func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp] {
        fatalError("PGQueries: not implemented yet")
    }
    func link(host: String, key: String) throws(StoreError) -> Link? { fatalError("PGQueries: not implemented yet") }
    func link(id: String) throws(StoreError) -> Link? { fatalError("PGQueries: not implemented yet") }
    func links(domain: String?, after: String?, limit: Int) throws(StoreError) -> [Link] {
        fatalError("PGQueries: not implemented yet")
    }
    func secretKey(hash: [UInt8]) throws(StoreError) -> SecretKeyRecord? {
        fatalError("PGQueries: not implemented yet")
    }
    func secretKeys() throws(StoreError) -> [SecretKeyRecord] { fatalError("PGQueries: not implemented yet") }
    func publishableKey(hash: [UInt8]) throws(StoreError) -> PublishableKeyRecord? {
        fatalError("PGQueries: not implemented yet")
    }
    func publishableKeys(app: String) throws(StoreError) -> [PublishableKeyRecord] {
        fatalError("PGQueries: not implemented yet")
    }
    func click(id: String) throws(StoreError) -> Click? { fatalError("PGQueries: not implemented yet") }
    func handoff(tokenHash: [UInt8]) throws(StoreError) -> Handoff? { fatalError("PGQueries: not implemented yet") }
    func openEvent(id: String) throws(StoreError) -> OpenEvent? { fatalError("PGQueries: not implemented yet") }
    func openEvent(app: String, eventId: String) throws(StoreError) -> OpenEvent? {
        fatalError("PGQueries: not implemented yet")
    }
    func openEvent(app: String, idempotencyKeyHash: [UInt8]) throws(StoreError) -> OpenEvent? {
        fatalError("PGQueries: not implemented yet")
    }
    func appInstance(app: String, instance: String) throws(StoreError) -> AppInstance? {
        fatalError("PGQueries: not implemented yet")
    }
    func signingKeys() throws(StoreError) -> [SigningKeyRecord] { fatalError("PGQueries: not implemented yet") }
    func idempotencyRecord(scope: String, keyHash: [UInt8]) throws(StoreError) -> IdempotencyRecord? {
        fatalError("PGQueries: not implemented yet")
    }
    func analytics(app: String, since: Int64, recent: Int) throws(StoreError) -> AppAnalytics {
        fatalError("PGQueries: not implemented yet")
    }
}
