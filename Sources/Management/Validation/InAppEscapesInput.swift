import Core
import Model
import Visit

/// The switches of the in-app escapes as a request states them (decision 0033 §5): an
/// object whose keys are in-app browser tags (`VisitorClassifier.inAppBrowserTags`) or `*`
/// and whose values are lists of escape names (`InAppEscape`). An empty object is no
/// switches at all. Each problem names its field: `<field>.<tag>`, `<field>.<tag>[i]`.
enum InAppEscapesInput {
    static let tagRule =
        "is not an in-app browser's tag: must be * or one of "
        + VisitorClassifier.inAppBrowserTags.joined(separator: ", ")
    static let escapeNames = InAppEscape.allCases.map(\.rawValue).joined(separator: ", ")
    static let escapeRule = "must be one of " + escapeNames

    static let knownTags = Set(VisitorClassifier.inAppBrowserTags + [InAppEscapeSwitches.anyApp])

    static func decode(_ value: JSONValue, field: String, problems p: inout FieldProblems) -> InAppEscapeSwitches? {
        guard let members = value.objectValue else {
            p.add(field, "must be an object of in-app browser tags (or *) to lists of escapes")
            return nil
        }
        if members.count > InAppEscapeSwitches.maxEntries {
            p.add(field, "must name at most \(InAppEscapeSwitches.maxEntries) tags")
            return nil
        }
        var byApp: [String: Set<InAppEscape>] = [:]
        var one = FieldProblems()
        for (tag, list) in members {
            let path = field + "." + tag
            guard knownTags.contains(tag) else {
                one.add(path, tagRule)
                continue
            }
            guard let items = list.arrayValue else {
                one.add(path, "must be a list of escapes (\(escapeNames)); [] allows none")
                continue
            }
            var set: Set<InAppEscape> = []
            for (i, item) in items.enumerated() {
                guard let name = item.stringValue, let escape = InAppEscape(rawValue: name) else {
                    one.add(path + "[\(i)]", escapeRule)
                    continue
                }
                set.insert(escape)
            }
            byApp[tag] = set
        }
        p.add(contentsOf: one)
        return one.isEmpty ? InAppEscapeSwitches(byApp) : nil
    }
}
