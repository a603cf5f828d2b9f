import Model
import Synchronization

/// The links any loop of this process read from the database, shared by every loop's
/// reader, for the moments the database cannot be read (decision 0011).
///
/// Each loop keeps its own `ReaderCache` without a lock; a loop that never read a link
/// (connections are spread over the loops by the kernel) has nothing of it in memory, and
/// while the server is away its read fails: the visitor of an existing link would get an
/// error page although another loop knows the link. A loop that read a link from the
/// database leaves it here too; a loop whose read fails looks here before it gives up.
/// Both happen only on a miss of the loop's own cache, so the lock stays off the hot path.
///
/// It follows the same `InvalidationLog` as the loops: a changed or deleted link leaves it
/// with the change's publication, and a link read before a change that was published
/// while the read ran is not kept. Only links that exist are kept: a flood of unknown keys
/// must not push real links out.
final class LastKnownLinks: Sendable {
    private let log: InvalidationLog
    private let cache: Mutex<ReaderCache>

    init(log: InvalidationLog, capacity: Int) {
        self.log = log
        cache = Mutex(ReaderCache(log: log, linkCacheCapacity: capacity))
    }

    /// Keeps `link`, read from the database by a reader that had applied the invalidation
    /// log up to `readAfter` before the read began.
    func remember(host: String, key: String, link: Link, readAfter: UInt64) {
        cache.withLock { cache in
            cache.catchUp()
            // Applied up to the sequence the read began at: anything published later is
            // still to be applied to what is stored now, so the answer is safe to keep.
            if cache.sequenceSeen != readAfter {
                let since = log.changes(since: readAfter)
                if since.clearAll || since.links.contains(where: { $0.host == host && $0.key == key }) { return }
            }
            cache.store(host: host, key: key, link: link)
        }
    }

    /// The link as last read by any loop, or nil when no loop read it (or it changed since).
    func link(host: String, key: String) -> Link? {
        cache.withLock { cache in
            cache.catchUp()
            return cache.link(host: host, key: key) ?? nil
        }
    }

    var count: Int { cache.withLock { $0.cachedLinkCount } }
}
