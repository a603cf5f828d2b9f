import Synchronization

/// "At most `limit` per minute" for many keys at once, shared by every event loop.
///
/// Each key holds one number, its theoretical arrival time (GCRA, the
/// token-bucket equivalent used by traffic shapers): a burst of `limit`
/// requests passes, then one every `60 s / limit`. A key whose time is in the
/// past is equivalent to an absent key, so it can be forgotten at any moment:
/// that is what bounds memory. Keys are spread over shards, each behind its own
/// lock held for a dictionary lookup, so loops rarely meet and never wait long.
///
/// A key is a 64-bit keyed hash of its text (`key(_:)`, Swift's `Hasher`, seeded
/// per process): one pass over the bytes per request instead of hashing a
/// string twice (shard, then dictionary) and building strings for composite
/// keys. Two texts with the same hash would share a bucket; with a per-process
/// random seed an attacker cannot aim for that, and by chance it is about one
/// in 2^64 per pair.
final class RateLimiter: Sendable {
    static let windowMicros: Int64 = 60_000_000
    private static let shardCount = 32

    let limit: Int
    private let interval: Int64
    private let tolerance: Int64
    private let maxKeysPerShard: Int
    private let shards: [Shard]

    private final class Shard: Sendable {
        let entries = Mutex<[UInt64: Int64]>([:])
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

    /// The bucket key of a text.
    static func key(_ text: String) -> UInt64 {
        var h = Hasher()
        h.combine(text)
        return UInt64(UInt(bitPattern: h.finalize()))
    }

    /// The bucket key of two texts together (each is length-delimited by `Hasher`).
    static func key(_ a: String, _ b: String) -> UInt64 {
        var h = Hasher()
        h.combine(a)
        h.combine(b)
        return UInt64(UInt(bitPattern: h.finalize()))
    }

    /// The bucket key of bytes (a token's hash).
    static func key(bytes: [UInt8]) -> UInt64 {
        var h = Hasher()
        bytes.withUnsafeBytes { h.combine(bytes: $0) }
        return UInt64(UInt(bitPattern: h.finalize()))
    }

    func acquire(_ key: String, nowMillis: Int64) -> Int64? { acquire(Self.key(key), nowMillis: nowMillis) }
    func check(_ key: String, nowMillis: Int64) -> Int64? { check(Self.key(key), nowMillis: nowMillis) }

    /// Takes one request for `key` at `nowMillis`: nil when allowed, else the
    /// microseconds until one would be.
    func acquire(_ key: UInt64, nowMillis: Int64) -> Int64? {
        guard isEnabled else { return nil }
        let now = nowMillis * 1000
        return shard(key).entries.withLock { map -> Int64? in
            // A known key is read and updated through one look-up (its index).
            if let slot = map.index(forKey: key) {
                let tat = max(map.values[slot], now)
                if tat - now > tolerance { return tat - now - tolerance }
                map.values[slot] = tat + interval
                return nil
            }
            // An absent key is a full bucket (tolerance >= 0): the request passes.
            store(&map, key, now + interval, now: now)
            return nil
        }
    }

    /// Whether `key` is spent, without taking anything.
    func check(_ key: UInt64, nowMillis: Int64) -> Int64? {
        guard isEnabled else { return nil }
        let now = nowMillis * 1000
        return shard(key).entries.withLock { map -> Int64? in
            guard let tat = map[key], tat - now > tolerance else { return nil }
            return tat - now - tolerance
        }
    }

    /// Keys currently remembered (tests).
    var trackedKeys: Int { shards.reduce(0) { $0 + $1.entries.withLock { $0.count } } }

    private func shard(_ key: UInt64) -> Shard {
        shards[Int(key % UInt64(RateLimiter.shardCount))]
    }

    private func store(_ map: inout [UInt64: Int64], _ key: UInt64, _ tat: Int64, now: Int64) {
        // The count first: a full shard is rare, and the look-up is not free.
        if map.count >= maxKeysPerShard, map[key] == nil {
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
