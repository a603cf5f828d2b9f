import Core
import Model

/// The writer's in-memory index of the iOS clicks that probabilistic matching may
/// pick: (app, domain, source hash) -> click ids, newest first (decision 0009).
///
/// It replaces an on-disk index whose random keys cost a dirtied page per iOS click
/// and commit. It may hold more than the candidates, never fewer: ids of clicks in a
/// batch that rolled back, or already consumed, stay until they age out, because
/// every id it yields is checked against the `clicks` row with the full candidate
/// condition. What it must not miss is a click the store still holds as a candidate;
/// so every iOS click with a source hash is added when it is written, the clicks of
/// the last `horizonMilliseconds` are loaded when the store opens, and an entry
/// leaves only when older than the horizon or when `capacity` is exceeded (oldest
/// first: past the cap a click can no longer match probabilistically).
///
/// Layout, for memory and the writer's time: entries live in one array in insertion
/// order, each linking to the previous entry of its key; a dictionary holds each
/// key's newest entry. A key is a 64-bit fingerprint of (app, domain, hash), apps and
/// domains interned to small numbers first; clicks are kept as their rowids.
/// Two keys may share a fingerprint: their chains then mix, which only adds ids that
/// the row check refuses (the index may over-hold, never miss).
struct CandidateIndex {
    /// Longest candidate window (60 minutes: `probabilisticWindowMinutes` is 1...60)
    /// plus a minute for batches whose time trails the clock.
    static let defaultHorizonMilliseconds: Int64 = 61 * 60_000

    let horizonMilliseconds: Int64
    let capacity: Int

    private typealias Key = UInt64

    private struct Slot {
        var key: Key
        /// The click's rowid in `clicks` (decision 0010).
        var click: Int64
        var at: Int64
        /// Sequence number of the previous entry of the same key, or -1.
        var previous: Int
    }

    /// Sequence number of the first slot in `slots`; entries below it are gone.
    private var base = 0
    private var head = 0  // index in `slots` of the oldest live entry
    private var slots: [Slot] = []
    private var newest: [Key: Int] = [:]
    private var interned: [String: Int32] = [:]
    /// The last app and domain interned: clicks come in runs of the same link.
    private var lastInterned: (app: String, appId: Int32, domain: String, domainId: Int32)?

    var count: Int { slots.count - head }
    /// Entries dropped before they aged out because the index was full.
    private(set) var droppedAtCapacity = 0

    init(capacity: Int, horizonMilliseconds: Int64 = CandidateIndex.defaultHorizonMilliseconds) {
        self.capacity = max(capacity, 0)
        self.horizonMilliseconds = horizonMilliseconds
    }

    mutating func insert(app: String, domain: String, sourceHash: [UInt8], click: Int64, at: Int64) {
        guard capacity > 0 else { return }
        let ids: (Int32, Int32)
        if let last = lastInterned, last.app == app, last.domain == domain {
            ids = (last.appId, last.domainId)
        } else {
            ids = (intern(app), intern(domain))
            lastInterned = (app, ids.0, domain, ids.1)
        }
        let key = Self.fingerprint(app: ids.0, domain: ids.1, hash: sourceHash)
        let sequence = base + slots.count
        let previous = newest.updateValue(sequence, forKey: key) ?? -1  // one hash lookup for both
        slots.append(Slot(key: key, click: click, at: at, previous: previous))
        while count > capacity {
            dropOldest()
            droppedAtCapacity += 1
        }
    }

    /// The clicks' rowids under the key at or after `since`, newest first (in insertion order).
    func candidates(app: String, domain: String, sourceHash: [UInt8], since: Int64) -> [Int64] {
        guard let app = interned[app], let domain = interned[domain],
            var sequence = newest[Self.fingerprint(app: app, domain: domain, hash: sourceHash)]
        else { return [] }
        var ids: [Int64] = []
        let oldest = base + head
        while sequence >= oldest {
            let slot = slots[sequence - base]
            if slot.at >= since { ids.append(slot.click) }
            sequence = slot.previous
        }
        return ids
    }

    /// Forgets entries older than the horizon before `now`.
    mutating func age(now: Int64) {
        let cutoff = now - horizonMilliseconds
        while head < slots.count, slots[head].at < cutoff {
            dropOldest()
        }
    }

    private mutating func dropOldest() {
        guard head < slots.count else { return }
        let key = slots[head].key
        // The key's chain ends here; when this was also its newest entry, the key goes.
        if let i = newest.index(forKey: key), newest.values[i] == base + head { newest.remove(at: i) }
        head += 1
        // Compact once the dead prefix is as long as the live part.
        if head > 1024 && head * 2 > slots.count {
            slots.removeFirst(head)
            base += head
            head = 0
        }
    }

    /// Hash bytes folded 8 at a time (native byte order: the index lives in memory
    /// only) through a 64-bit mixer (splitmix64's finalizer), after the app, the
    /// domain and the length.
    private static func fingerprint(app: Int32, domain: Int32, hash: [UInt8]) -> UInt64 {
        var h = mix(UInt64(UInt32(bitPattern: app)) << 32 | UInt64(UInt32(bitPattern: domain)))
        h = mix(h ^ UInt64(hash.count))
        return hash.withUnsafeBytes { bytes in
            var i = 0
            while i + 8 <= bytes.count {
                h = mix(h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            guard i < bytes.count else { return h }
            var word: UInt64 = 0
            while i < bytes.count {
                word = word << 8 | UInt64(bytes[i])
                i += 1
            }
            return mix(h ^ word)
        }
    }

    private static func mix(_ x: UInt64) -> UInt64 {
        var z = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func intern(_ text: String) -> Int32 {
        if let id = interned[text] { return id }
        let id = Int32(interned.count)
        interned[text] = id
        return id
    }
}
