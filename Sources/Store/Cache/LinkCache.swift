import Model

/// One reader's host + key -> link cache, owned by that reader's thread (no lock).
///
/// Holds negative entries too (`nil`: no such link), so a flood of unknown keys
/// costs one query per key per reader. Bounded: two generations of at most
/// `capacity` entries each; when the young one is full it becomes the old one
/// and the previous old one is dropped, and a hit in the old generation is
/// promoted. That approximates LRU at the cost of one extra lookup on a miss.
struct LinkCache {
    struct Key: Hashable {
        var host: String
        var key: String
    }

    private var young: [Key: Link?] = [:]
    private var old: [Key: Link?] = [:]
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// `.some(nil)` is a cached "no such link"; `nil` is a miss.
    mutating func lookup(host: String, key: String) -> Link?? {
        let k = Key(host: host, key: key)
        if let hit = young[k] { return .some(hit) }
        if let hit = old.removeValue(forKey: k) {
            insert(k, hit)
            return .some(hit)
        }
        return nil
    }

    mutating func store(host: String, key: String, link: Link?) {
        insert(Key(host: host, key: key), link)
    }

    mutating func invalidate(host: String, key: String) {
        let k = Key(host: host, key: key)
        young.removeValue(forKey: k)
        old.removeValue(forKey: k)
    }

    mutating func removeAll() {
        young = [:]
        old = [:]
    }

    var count: Int { young.count + old.count }

    private mutating func insert(_ k: Key, _ link: Link?) {
        if young.count >= capacity && young[k] == nil {
            old = young
            young = [:]
            young.reserveCapacity(capacity)
        }
        young[k] = .some(link)
    }
}
