import Model

/// One event loop's reader: its own read-only (`query_only`) connection with cached
/// statements, in front of it the loop's `ReaderCache` (domains and apps from the
/// current snapshot, links from a private cache).
final class SQLiteReader: SQLiteQueries {
    private var cache: ReaderCache

    init(db: SQLiteConnection, log: InvalidationLog, linkCacheCapacity: Int) {
        cache = ReaderCache(log: log, linkCacheCapacity: linkCacheCapacity)
        super.init(db: db)
    }

    // MARK: from the snapshot

    override func domain(_ hostname: String) throws(StoreError) -> Domain? {
        cache.catchUp()
        return cache.catalog.domainsByHost[hostname]
    }

    override func domain(servedAt host: String) throws(StoreError) -> Domain? {
        cache.catchUp()
        return cache.catalog.domainsByServedHost[host]
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

    override func inAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings {
        cache.catchUp()
        return cache.catalog.inAppEscapes
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

    /// Entries held, for tests and metrics.
    var cachedLinkCount: Int { cache.cachedLinkCount }
}
