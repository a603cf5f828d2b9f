import Model

/// What one event loop's reader keeps in memory, whatever the backend: the current
/// domain/app snapshot, a private link cache, and how far it has followed the
/// invalidation log.
///
/// Confined to one thread, so nothing here takes a lock on the hot path: a cached
/// read costs one atomic load (has anything changed since I last looked?) plus a
/// dictionary lookup. When the writer published changes, the reader takes the
/// invalidation log's lock once to catch up.
struct ReaderCache {
    private let log: InvalidationLog
    private var seen: UInt64
    private(set) var catalog: CatalogSnapshot
    private var links: LinkCache
    /// Counts `applyChanges` calls that touched links; `linksChangedAt[host]` is the
    /// count when a link of `host` last changed, `linksClearedAt` when every cached
    /// answer was dropped (which may hide any host's change). Hosts are few (domains).
    private var linkChanges: UInt64 = 0
    private var linksChangedAt: [String: UInt64] = [:]
    private var linksClearedAt: UInt64 = 0

    init(log: InvalidationLog, linkCacheCapacity: Int) {
        self.log = log
        let start = log.changes(since: 0)
        seen = start.sequence
        catalog = start.catalog
        links = LinkCache(capacity: linkCacheCapacity)
    }

    /// Applies what the writer published since the last read (one atomic load when nothing did).
    @inline(__always)
    mutating func catchUp() {
        let current = log.sequence.load(ordering: .acquiring)
        if current != seen { applyChanges() }
    }

    private mutating func applyChanges() {
        let changes = log.changes(since: seen)
        if changes.clearAll {
            links.removeAll()
            linkChanges += 1
            linksClearedAt = linkChanges
            linksChangedAt.removeAll()
        } else if !changes.links.isEmpty {
            linkChanges += 1
            for (host, key) in changes.links {
                links.invalidate(host: host, key: key)
                linksChangedAt[host] = linkChanges
            }
        }
        catalog = changes.catalog
        seen = changes.sequence
    }

    /// The cached answer for `https://<host>/<key>` (`.some(nil)`: known to be absent),
    /// or nil when it must be read. Call `catchUp` first.
    mutating func link(host: String, key: String) -> Link?? { links.lookup(host: host, key: key) }

    /// Remembers an answer read from the database. A change committed while that read
    /// ran is at a sequence above `seen`, so the next `catchUp` drops what is stored here.
    mutating func store(host: String, key: String, link: Link?) { links.store(host: host, key: key, link: link) }

    /// See `StoreReader.linksVersion`. Call `catchUp` first.
    func linksVersion(host: String) -> UInt64 { max(linksChangedAt[host] ?? 0, linksClearedAt) }

    var cachedLinkCount: Int { links.count }

    /// How far this cache applied the invalidation log (`InvalidationLog.sequence`).
    var sequenceSeen: UInt64 { seen }
}
