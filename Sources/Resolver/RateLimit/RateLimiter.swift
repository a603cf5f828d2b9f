import Synchronization

/// "At most `limit` per minute" for many keys at once, shared by every event loop, and
/// on PostgreSQL by every node of the fleet (decision 0016).
///
/// Each key holds its theoretical arrival time (GCRA, the token-bucket equivalent used
/// by traffic shapers): a burst of `limit` requests passes, then one every
/// `60 s / limit`. A key whose time is in the past is equivalent to an absent key, so
/// it can be forgotten at any moment: that is what bounds memory. Keys are spread over
/// shards, each behind its own lock held for a dictionary lookup, so loops rarely meet
/// and never wait long. The per-key rules, and how the other nodes' admissions and the
/// node's share of the bucket enter them, are `FleetBucket`'s.
///
/// In a fleet (`fleet: true`), a key the loops touch is listed for the next sync
/// (`FleetSync`), which publishes this node's admissions and folds in the others'. The
/// loops never wait for it: a decision is made with what the node knows now.
final class RateLimiter: Sendable {
    static let windowMicros: Int64 = 60_000_000
    private static let shardCount = 32

    let limit: Int
    let rules: FleetBucket.Rules
    /// The hash that makes texts keys (the convenience methods taking texts use it).
    let keys: RateLimitKeys
    /// Whether keys are listed for syncs with other nodes.
    let fleet: Bool
    /// Live nodes as the last sync counted them (1 alone, or when syncs fail).
    let nodes = Atomic<Int>(1)
    /// Syncs applied so far (shares older than two syncs are stale).
    let generation = Atomic<Int64>(0)
    /// Set by `FleetSync` while its exchanges have failed for longer than it waits before
    /// the node decides alone (decision 0016: fails open); admissions meanwhile are
    /// counted (`unsyncedAdmissions`), since the fleet's limit did not hold them.
    let unsynced = Atomic<Bool>(false)
    private let maxKeysPerShard: Int
    private let shards: [Shard]

    private struct ShardState {
        var entries: [UInt64: FleetBucket] = [:]
        /// Keys touched since the last sync collected them (fleet only).
        var queue: [UInt64] = []
        /// Admissions while `unsynced` (counted under the shard's lock, which the loop
        /// holds anyway: no shared counter on the request path).
        var unsyncedAdmissions: Int64 = 0
    }

    private final class Shard: Sendable {
        let state = Mutex(ShardState())
    }

    /// `limit` per minute; 0 disables the limiter.
    init(
        limit: Int, maxKeys: Int, keys: RateLimitKeys = .random(), fleet: Bool = false,
        syncIntervalMicros: Int64 = 100_000
    ) {
        self.limit = max(0, limit)
        self.rules = FleetBucket.Rules(
            limit: max(1, limit), window: RateLimiter.windowMicros, syncInterval: syncIntervalMicros)
        self.keys = keys
        self.fleet = fleet
        self.maxKeysPerShard = max(16, maxKeys / RateLimiter.shardCount)
        self.shards = (0..<RateLimiter.shardCount).map { _ in Shard() }
    }

    var isEnabled: Bool { limit > 0 }

    func acquire(_ key: String, nowMillis: Int64) -> Int64? { acquire(keys.key(key), nowMillis: nowMillis) }
    func check(_ key: String, nowMillis: Int64) -> Int64? { check(keys.key(key), nowMillis: nowMillis) }

    /// Takes one request for `key` at `nowMillis`: nil when allowed, else the
    /// microseconds until one would be.
    func acquire(_ key: UInt64, nowMillis: Int64) -> Int64? {
        guard isEnabled else { return nil }
        let now = nowMillis * 1000
        let nodes = fleet ? self.nodes.load(ordering: .relaxed) : 1
        let generation = self.generation.load(ordering: .relaxed)
        let unsynced = fleet && self.unsynced.load(ordering: .relaxed)
        return shard(key).state.withLock { state -> Int64? in
            // A known key is read and updated through one look-up (its index).
            if let slot = state.entries.index(forKey: key) {
                let wait = state.entries.values[slot].acquire(
                    now: now, nodes: nodes, generation: generation, rules)
                if fleet, !state.entries.values[slot].queued {
                    state.entries.values[slot].queued = true
                    state.queue.append(key)
                }
                if unsynced, wait == nil { state.unsyncedAdmissions += 1 }
                return wait
            }
            var entry = FleetBucket(now: now)
            let wait = entry.acquire(now: now, nodes: nodes, generation: generation, rules)
            if fleet {
                entry.queued = true
                state.queue.append(key)
                if unsynced, wait == nil { state.unsyncedAdmissions += 1 }
            } else if wait != nil {
                return wait  // nothing taken, nothing to remember
            }
            store(&state, key, entry, now: now)
            return wait
        }
    }

    /// Whether `key` is spent, without taking anything.
    func check(_ key: UInt64, nowMillis: Int64) -> Int64? {
        guard isEnabled else { return nil }
        let now = nowMillis * 1000
        return shard(key).state.withLock { state -> Int64? in
            state.entries[key]?.wait(now: now, rules)
        }
    }

    /// Requests admitted while `unsynced`, since the start.
    var unsyncedAdmissions: Int64 { shards.reduce(0) { $0 + $1.state.withLock { $0.unsyncedAdmissions } } }

    /// Keys currently remembered (tests).
    var trackedKeys: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.entries.count } } }

    // MARK: syncs (the sync thread)

    /// One key's part of an exchange.
    struct Published: Sendable, Equatable {
        var key: UInt64
        var added: Int64
        var ownTAT: Int64
    }

    /// Takes up to `limit` keys touched since the last collection, with what to publish
    /// for each. Keys left over stay listed for the next one.
    func collect(limit: Int) -> [Published] {
        var out: [Published] = []
        for shard in shards where out.count < limit {
            shard.state.withLock { state in
                let take = min(state.queue.count, limit - out.count)
                for key in state.queue.prefix(take) {
                    guard let slot = state.entries.index(forKey: key) else { continue }
                    state.entries.values[slot].queued = false
                    let entry = state.entries.values[slot]
                    out.append(Published(key: key, added: entry.unpublished, ownTAT: entry.ownTAT))
                }
                state.queue.removeFirst(take)
            }
        }
        return out
    }

    /// Folds in the answer to an exchange that published `published` (same order).
    func apply(_ published: [Published], _ others: [FleetOthersView], nowMillis: Int64, nodes: Int) {
        let now = nowMillis * 1000
        let generation = self.generation.add(1, ordering: .relaxed).newValue
        for (p, o) in zip(published, others) {
            shard(p.key).state.withLock { state in
                // A key forgotten meanwhile had nothing left to publish.
                guard let slot = state.entries.index(forKey: p.key) else { return }
                state.entries.values[slot].apply(
                    o, published: p.added, now: now, nodes: nodes, generation: generation, rules)
            }
        }
    }

    /// Lists keys again after a failed exchange (their counts were not published).
    func requeue(_ published: [Published]) {
        for p in published {
            shard(p.key).state.withLock { state in
                guard let slot = state.entries.index(forKey: p.key), !state.entries.values[slot].queued else { return }
                state.entries.values[slot].queued = true
                state.queue.append(p.key)
            }
        }
    }

    /// The state of one key (tests).
    func bucket(_ key: UInt64) -> FleetBucket? { shard(key).state.withLock { $0.entries[key] } }

    private func shard(_ key: UInt64) -> Shard {
        shards[Int(key % UInt64(RateLimiter.shardCount))]
    }

    private func store(_ state: inout ShardState, _ key: UInt64, _ entry: FleetBucket, now: Int64) {
        // The count first: a full shard is rare, and the look-up is not free.
        if state.entries.count >= maxKeysPerShard {
            // Forget keys that are back to empty (and have nothing to publish).
            state.entries = state.entries.filter { !$0.value.isIdle(now: now) }
            if state.entries.count >= maxKeysPerShard {
                // Still full of live keys: forget those closest to empty (fail open).
                let keep = state.entries.sorted { $0.value.tat > $1.value.tat }.prefix(maxKeysPerShard * 3 / 4)
                state.entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
            let kept = state.entries
            state.queue.removeAll { kept[$0] == nil }
        }
        state.entries[key] = entry
    }
}
