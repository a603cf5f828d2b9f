import Core
import Model
import Store

/// Publishable-key records by the `Authorization` value that carried the key (the
/// resolver's caller; tests use bare keys), one small cache per event loop (each
/// used only from its loop's thread), so that the key check of every resolver
/// request costs neither a SQLite read transaction nor a SHA-256 of the key: the
/// caller hashes the key only to read it (a publishable key ships in every app
/// binary; keeping its text here for a second is no new exposure). Two spellings
/// of one key (`Bearer` or `bearer`) are two entries with the same record.
///
/// A loop's entries are dropped as soon as the store's `publishableKeysVersion`
/// moves (a key was added, rotated, revoked or deleted): a key revoked through the
/// API is refused by the very next request. Entries also live at most
/// `ttlMilliseconds` (default one second), a backstop for changes the version does
/// not see. Unknown keys are cached too, and each loop's cache is emptied when it
/// holds `capacity` entries, so a stream of random keys cannot grow it.
final class KeyCache: Sendable {
    private struct Entry {
        var record: PublishableKeyRecord?
        var fetchedAt: Int64
    }

    /// One loop's entries and the key version they are of.
    private struct Loop {
        var entries: [String: Entry] = [:]
        var version: UInt64 = 0
    }

    private let loops: PerLoop<Loop>
    let ttlMilliseconds: Int64
    let capacity: Int

    init(loops: Int, ttlMilliseconds: Int64 = 1_000, capacity: Int = 10_000) {
        self.loops = PerLoop(count: loops) { Loop() }
        self.ttlMilliseconds = ttlMilliseconds
        self.capacity = capacity
    }

    /// The record for `key` (any text that names one key) as of at most
    /// `ttlMilliseconds` ago and of key version `version` (`Store.publishableKeysVersion`),
    /// reading through `fetch` when needed. Call only on loop `loop`'s thread.
    func record(
        key: String, loop: Int, now: Int64, version: UInt64, fetch: () throws(StoreError) -> PublishableKeyRecord?
    ) throws(StoreError) -> PublishableKeyRecord? {
        try self.loops.with(loop % self.loops.count) { cache throws(StoreError) in
            if cache.version != version {
                cache.entries.removeAll(keepingCapacity: true)
                cache.version = version
            }
            if let hit = cache.entries[key], now - hit.fetchedAt < ttlMilliseconds, now >= hit.fetchedAt {
                return hit.record
            }
            let record = try fetch()
            if cache.entries.count >= capacity { cache.entries.removeAll(keepingCapacity: true) }
            cache.entries[key] = Entry(record: record, fetchedAt: now)
            return record
        }
    }
}
