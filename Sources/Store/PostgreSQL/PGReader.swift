import Model

/// One event loop's reader on PostgreSQL: the loop's `ReaderCache` (domains and apps
/// from the current snapshot, links from a private cache) in front of its own
/// connection, which only cache misses and the uncached reads use.
///
/// A loop never waits for a connection to be made: when the connection breaks, reads
/// fail at once with `.unavailable` (visits answer from the cache meanwhile), and the
/// store's background thread makes a new one that the loop picks up on its next read
/// (`PGConnectionSlot`).
final class PGReader: PGQueries {
    private var cache: ReaderCache
    private let slot: PGConnectionSlot
    /// The loop's connection (the slot replaces it when it broke).
    private var active: PGConnection

    init(connection: PGConnection, slot: PGConnectionSlot, log: InvalidationLog, linkCacheCapacity: Int) {
        cache = ReaderCache(log: log, linkCacheCapacity: linkCacheCapacity)
        self.slot = slot
        active = connection
        super.init(db: connection)
    }

    override var db: PGConnection {
        get throws(StoreError) { try slot.current(&active) }
    }

    // MARK: from the snapshot

    override func domain(_ hostname: String) throws(StoreError) -> Domain? {
        cache.catchUp()
        return cache.catalog.domainsByHost[hostname]
    }

    override func domains() throws(StoreError) -> [Domain] {
        cache.catchUp()
        return cache.catalog.domains
    }

    override func app(_ id: String) throws(StoreError) -> MobileApp? {
        cache.catchUp()
        return cache.catalog.appsById[id]
    }

    override func apps() throws(StoreError) -> [MobileApp] {
        cache.catchUp()
        return cache.catalog.apps
    }

    override func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp] {
        cache.catchUp()
        return cache.catalog.appsByDomain[hostname] ?? []
    }

    // MARK: from the link cache

    override func link(host: String, key: String) throws(StoreError) -> Link? {
        cache.catchUp()
        if let cached = cache.link(host: host, key: key) { return cached }
        let link = try super.link(host: host, key: key)
        cache.store(host: host, key: key, link: link)
        return link
    }

    override func linksVersion(host: String) -> UInt64? {
        cache.catchUp()
        return cache.linksVersion(host: host)
    }
}
