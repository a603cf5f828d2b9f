/// The writer's in-memory index of the iOS clicks that probabilistic matching may
/// pick: (app, domain, source hash) -> click ids, newest last (decision 0009).
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
struct CandidateIndex {
    struct Key: Hashable {
        var appId: String
        var domain: String
        var sourceHash: [UInt8]
    }

    struct Entry: Equatable {
        var clickId: String
        var at: Int64
    }

    /// Longest candidate window (60 minutes: `probabilisticWindowMinutes` is 1...60)
    /// plus a minute for batches whose time trails the clock.
    static let defaultHorizonMilliseconds: Int64 = 61 * 60_000

    let horizonMilliseconds: Int64
    let capacity: Int
    private var byKey: [Key: [Entry]] = [:]
    /// Insertion order, for ageing out. `head` is the first live slot.
    private var order: [(key: Key, entry: Entry)] = []
    private var head = 0
    private(set) var count = 0

    init(capacity: Int, horizonMilliseconds: Int64 = CandidateIndex.defaultHorizonMilliseconds) {
        self.capacity = max(capacity, 0)
        self.horizonMilliseconds = horizonMilliseconds
    }

    mutating func insert(_ key: Key, _ entry: Entry) {
        guard capacity > 0 else { return }
        byKey[key, default: []].append(entry)
        order.append((key, entry))
        count += 1
        while count > capacity { dropOldest() }
    }

    /// The ids under `key` at or after `since`, newest first.
    func candidates(_ key: Key, since: Int64) -> [String] {
        guard let entries = byKey[key] else { return [] }
        var ids: [String] = []
        for entry in entries.reversed() where entry.at >= since {
            ids.append(entry.clickId)
        }
        return ids
    }

    /// Forgets entries older than the horizon before `now`.
    mutating func age(now: Int64) {
        let cutoff = now - horizonMilliseconds
        while head < order.count, order[head].entry.at < cutoff {
            dropOldest()
        }
    }

    private mutating func dropOldest() {
        guard head < order.count else { return }
        let (key, entry) = order[head]
        head += 1
        // In place (a copied-out array would be copied again on write).
        if let i = byKey[key]?.firstIndex(of: entry) {
            byKey[key]!.remove(at: i)
            if byKey[key]!.isEmpty { byKey[key] = nil }
            count -= 1
        }
        // Compact the queue once its dead prefix is as long as the live part.
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
