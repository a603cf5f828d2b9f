import Model

/// The `InAppIntentTemplate`s one event loop has used, by what they are built from (the
/// app's package and Play URL, the kind). Bounded like `VisitorCache`: past `capacity`
/// entries it starts over. Not thread-safe: one per event loop.
public struct InAppIntentCache: Sendable {
    struct Key: Hashable, Sendable {
        var packageName: String
        var playStoreUrl: String?
        var kind: InAppIntentTemplate.Kind
    }

    public let capacity: Int
    private var entries: [Key: InAppIntentTemplate] = [:]

    public init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    public var count: Int { entries.count }

    /// The template returned last, checked before hashing a key: most in-app traffic is
    /// one app's.
    private var last: (key: Key, template: InAppIntentTemplate)?

    public mutating func template(_ android: AndroidPlatform, kind: InAppIntentTemplate.Kind) -> InAppIntentTemplate {
        if let last, last.key.kind == kind, last.key.packageName == android.packageName,
            last.key.playStoreUrl == android.playStoreUrl
        {
            return last.template
        }
        let key = Key(packageName: android.packageName, playStoreUrl: android.playStoreUrl, kind: kind)
        if let known = entries[key] {
            last = (key, known)
            return known
        }
        if entries.count >= capacity {
            entries.removeAll(keepingCapacity: true)
            last = nil
        }
        let template = InAppIntentTemplate(android: android, kind: kind)
        entries[key] = template
        last = (key, template)
        return template
    }
}
