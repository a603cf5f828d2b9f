/// The classification of the user agents one thread saw last, so that a UA seen before
/// costs one hash lookup instead of a lower-casing pass and a pattern scan.
///
/// Real traffic repeats a few hundred UAs (one per browser build), so most visits hit.
/// `VisitorClassifier.classify(userAgent:)` depends on the UA alone, so a cached answer
/// is the answer. Bounded: when `capacity` UAs are held the cache starts over, and UAs
/// longer than `maxKeyBytes` are never kept (a client sending a new UA per request only
/// pays for the hash). Not thread-safe: one per event loop.
public struct VisitorCache: Sendable {
    public let capacity: Int
    public static let maxKeyBytes = 512
    private var entries: [String: Visitor] = [:]

    public init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    public var count: Int { entries.count }

    /// `VisitorClassifier.classify(method:userAgent:)`, remembered by UA.
    public mutating func classify(method: String, userAgent: String?) -> Visitor {
        guard method != "HEAD", let ua = userAgent, ua.utf8.count <= VisitorCache.maxKeyBytes else {
            return VisitorClassifier.classify(method: method, userAgent: userAgent)
        }
        if let known = entries[ua] { return known }
        let visitor = VisitorClassifier.classify(userAgent: ua)
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[ua] = visitor
        return visitor
    }
}
