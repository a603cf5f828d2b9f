import Synchronization

/// "At most `limit` per minute" for many keys at once, shared by every event loop.
///
/// Each key holds one number, its theoretical arrival time (GCRA, the
/// token-bucket equivalent used by traffic shapers): a burst of `limit`
/// requests passes, then one every `60 s / limit`. A key whose time is in the
/// past is equivalent to an absent key, so it can be forgotten at any moment:
/// that is what bounds memory. Keys are spread over shards, each behind its own
/// lock held for a dictionary lookup, so loops rarely meet and never wait long.
final class RateLimiter: Sendable {
    static let windowMicros: Int64 = 60_000_000
    private static let shardCount = 32

    let limit: Int
    private let interval: Int64
    private let tolerance: Int64
    private let maxKeysPerShard: Int
    private let shards: [Shard]

    private final class Shard: Sendable {
        let entries = Mutex<[String: Int64]>([:])
    }

    /// `limit` per minute; 0 disables the limiter.
    init(limit: Int, maxKeys: Int) {
        self.limit = max(0, limit)
        self.interval = limit > 0 ? RateLimiter.windowMicros / Int64(limit) : 0
        self.tolerance = RateLimiter.windowMicros - interval
        self.maxKeysPerShard = max(16, maxKeys / RateLimiter.shardCount)
        self.shards = (0..<RateLimiter.shardCount).map { _ in Shard() }
    }

    var isEnabled: Bool { limit > 0 }

    /// Takes one request for `key` at `nowMillis`: nil when allowed, else the
    /// microseconds until one would be.
    func acquire(_ key: String, nowMillis: Int64) -> Int64? {
        guard isEnabled else { return nil }
        let now = nowMillis * 1000
        return shard(key).entries.withLock { map -> Int64? in
            let tat = max(map[key] ?? now, now)
            if tat - now > tolerance { return tat - now - tolerance }
            store(&map, key, tat + interval, now: now)
            return nil
        }
    }

    /// Whether `key` is spent, without taking anything.
    func check(_ key: String, nowMillis: Int64) -> Int64? {
        guard isEnabled else { return nil }
        let now = nowMillis * 1000
        return shard(key).entries.withLock { map -> Int64? in
            guard let tat = map[key], tat - now > tolerance else { return nil }
            return tat - now - tolerance
        }
    }

    /// Counts one event for `key` even when spent (failures are recorded after the fact).
    func record(_ key: String, nowMillis: Int64) {
        guard isEnabled else { return }
        let now = nowMillis * 1000
        shard(key).entries.withLock { map in
            let tat = max(map[key] ?? now, now)
            // Cap at one interval past the limit, so a flood cannot push recovery out forever.
            store(&map, key, min(tat + interval, now + tolerance + interval), now: now)
        }
    }

    /// Keys currently remembered (tests).
    var trackedKeys: Int { shards.reduce(0) { $0 + $1.entries.withLock { $0.count } } }

    private func shard(_ key: String) -> Shard {
        shards[Int(UInt(bitPattern: key.hashValue) % UInt(RateLimiter.shardCount))]
    }

    private func store(_ map: inout [String: Int64], _ key: String, _ tat: Int64, now: Int64) {
        if map[key] == nil, map.count >= maxKeysPerShard {
            map = map.filter { $0.value > now }  // forget keys that are back to full
            if map.count >= maxKeysPerShard {
                // Still full of live keys: forget those closest to full (fail open).
                let keep = map.sorted { $0.value > $1.value }.prefix(maxKeysPerShard * 3 / 4)
                map = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
        }
        map[key] = tat
    }
}
