import Model

/// The links' `PreparedOptions` one event loop has used, by the identity of their
/// options object (which the store's link cache keeps while the link is cached, and each
/// entry keeps alive so that the identity is not reused). Bounded like `VisitorCache`:
/// past `capacity` entries it starts over. Not thread-safe: one per event loop.
public struct PreparedOptionsCache: Sendable {
    public let capacity: Int
    private var entries: [ObjectIdentifier: PreparedOptions] = [:]

    public init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    public var count: Int { entries.count }

    /// `options` (those of `link`) prepared, from the cache when they fit the link as it is.
    public mutating func prepared(_ options: LinkOptions, of link: Link) -> PreparedOptions {
        let id = ObjectIdentifier(options)
        if let known = entries[id], known.fits(link) { return known }
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        let prepared = PreparedOptions(link: link, options: options)
        entries[id] = prepared
        return prepared
    }
}
