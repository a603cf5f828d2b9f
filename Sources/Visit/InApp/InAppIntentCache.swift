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

    public mutating func template(_ android: AndroidPlatform, kind: InAppIntentTemplate.Kind) -> InAppIntentTemplate {
        let key = Key(packageName: android.packageName, playStoreUrl: android.playStoreUrl, kind: kind)
        if let known = entries[key] { return known }
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        let template = InAppIntentTemplate(android: android, kind: kind)
        entries[key] = template
        return template
    }
}
