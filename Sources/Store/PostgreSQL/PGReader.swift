import Model

/// One event loop's reader on PostgreSQL: the loop's `ReaderCache` (domains and apps
/// from the current snapshot, links from a private cache) in front of its own
/// connection, which only cache misses and the uncached reads use.
///
/// A loop never waits for a connection to be made: when the connection breaks, reads
/// fail at once with `.unavailable` (a link answers from the loop's cache meanwhile, or
/// from `LastKnownLinks` when another loop read it), and the store's background thread
/// makes a new one that the loop picks up on its next read (`PGConnectionSlot`).
final class PGReader: PGQueries {
    private var cache: ReaderCache
    private let slot: PGConnectionSlot
    /// The loop's connection (the slot replaces it when it broke).
    private var active: PGConnection

    /// The links every loop read, for a read that fails (shared by the store's readers).
    private let lastKnown: LastKnownLinks

    init(
        connection: PGConnection, slot: PGConnectionSlot, log: InvalidationLog, linkCacheCapacity: Int,
        lastKnown: LastKnownLinks
    ) {
        cache = ReaderCache(log: log, linkCacheCapacity: linkCacheCapacity)
        self.lastKnown = lastKnown
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
        let readAfter = cache.sequenceSeen
        let link: Link?
        do throws(StoreError) {
            link = try super.link(host: host, key: key)
        } catch {
            // The server is away (or refused the read): a link another loop read still
            // answers, so that its visitors never get an error page (decision 0011).
            guard let known = lastKnown.link(host: host, key: key) else { throw error }
            cache.store(host: host, key: key, link: known)
            return known
        }
        cache.store(host: host, key: key, link: link)
        if let link { lastKnown.remember(host: host, key: key, link: link, readAfter: readAfter) }
        return link
    }

    override func linksVersion(host: String) -> UInt64? {
        cache.catchUp()
        return cache.linksVersion(host: host)
    }
}
