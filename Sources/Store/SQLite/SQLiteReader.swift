import Model

/// One event loop's reader: its own read-only (`query_only`) connection with
/// cached statements, the current domain/app snapshot and a private link cache.
///
/// Confined to one thread, so nothing here takes a lock on the hot path: a
/// cached read costs one atomic load (has anything changed since I last
/// looked?) plus a dictionary lookup. When the writer published changes, the
/// reader takes the invalidation log's lock once to catch up.
final class SQLiteReader: SQLiteQueries {
    private let log: InvalidationLog
    private var seen: UInt64
    private var catalog: CatalogSnapshot
    private var cache: LinkCache
    /// Counts `applyChanges` calls that touched links; `linksChangedAt[host]` is the
    /// count when a link of `host` last changed, `linksClearedAt` when every cached
    /// answer was dropped (which may hide any host's change). Hosts are few (domains).
    private var linkChanges: UInt64 = 0
    private var linksChangedAt: [String: UInt64] = [:]
    private var linksClearedAt: UInt64 = 0

    init(db: SQLiteConnection, log: InvalidationLog, linkCacheCapacity: Int) {
        self.log = log
        let start = log.changes(since: 0)
        seen = start.sequence
        catalog = start.catalog
        cache = LinkCache(capacity: linkCacheCapacity)
        super.init(db: db)
    }

    /// Applies what the writer published since the last read (one atomic load when nothing did).
    @inline(__always)
    private func catchUp() {
        let current = log.sequence.load(ordering: .acquiring)
        if current != seen { applyChanges() }
    }

    private func applyChanges() {
        let changes = log.changes(since: seen)
        if changes.clearAll {
            cache.removeAll()
            linkChanges += 1
            linksClearedAt = linkChanges
            linksChangedAt.removeAll()
        } else if !changes.links.isEmpty {
            linkChanges += 1
            for (host, key) in changes.links {
                cache.invalidate(host: host, key: key)
                linksChangedAt[host] = linkChanges
            }
        }
        catalog = changes.catalog
        seen = changes.sequence
    }

    // MARK: from the snapshot

    override func domain(_ hostname: String) throws(StoreError) -> Domain? {
        catchUp()
        return catalog.domainsByHost[hostname]
    }

    override func domains() throws(StoreError) -> [Domain] {
        catchUp()
        return catalog.domains
    }

    override func app(_ id: String) throws(StoreError) -> MobileApp? {
        catchUp()
        return catalog.appsById[id]
    }

    override func apps() throws(StoreError) -> [MobileApp] {
        catchUp()
        return catalog.apps
    }

    override func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp] {
        catchUp()
        return catalog.appsByDomain[hostname] ?? []
    }

    // MARK: from the link cache

    override func link(host: String, key: String) throws(StoreError) -> Link? {
        catchUp()
        if let cached = cache.lookup(host: host, key: key) { return cached }
        // A change committed while this query runs is at a sequence above `seen`,
        // so the next read applies it and drops what we store here.
        let link = try super.link(host: host, key: key)
        cache.store(host: host, key: key, link: link)
        return link
    }

    override func linksVersion(host: String) -> UInt64? {
        catchUp()
        return max(linksChangedAt[host] ?? 0, linksClearedAt)
    }

    /// Entries held, for tests and metrics.
    var cachedLinkCount: Int { cache.count }
}
