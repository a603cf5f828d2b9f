import Core

/// The switches as the API answers them and the store keeps them: an object of tag to the
/// escapes' names, tags and names in a stable order (sorted; `*` first), so that the
/// stored text and the answer do not depend on a dictionary's order.
extension InAppEscapeSwitches {
    public var json: JSONValue {
        .object(
            byApp.keys.sorted().map { tag in
                (tag, .array(InAppEscape.allCases.filter { byApp[tag]!.contains($0) }.map { .string($0.rawValue) }))
            })
    }

    /// The switches of a stored text, nil when it is not an object of arrays of known names.
    public init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        var byApp: [String: Set<InAppEscape>] = [:]
        for (tag, value) in members {
            guard let items = value.arrayValue else { return nil }
            var set: Set<InAppEscape> = []
            for item in items {
                guard let name = item.stringValue, let escape = InAppEscape(rawValue: name) else { return nil }
                set.insert(escape)
            }
            byApp[tag] = set
        }
        self.init(byApp)
    }
}
