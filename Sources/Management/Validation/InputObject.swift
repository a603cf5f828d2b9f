import Core

/// Reads the members of one JSON object of a request, noting every broken rule in a
/// `FieldProblems` and remembering which members were read, so that whatever is left
/// is reported as unknown (clients learn about typos instead of silent drops).
///
/// Absent members take their default; `null` is accepted only by the `nullable`
/// readers. Every reader names the field with its full JSON path.
struct InputObject {
    /// JSON path of this object (`""` for the body, `ios`, `links[2].mobile`).
    let path: String
    private let members: [(String, JSONValue)]
    private var read: Set<String> = []
    /// An update's stored object (the resource's writable fields before the patch): a
    /// member equal to its stored value is one the request does not change, and is not
    /// validated again (`isUnchanged`), so that a rule made stricter since it was stored
    /// never blocks another change (disabling a link, above all).
    private let stored: [(String, JSONValue)]?

    /// Nil, with a problem, when `value` is not an object.
    init?(_ value: JSONValue, path: String, stored: JSONValue? = nil, problems: inout FieldProblems) {
        guard case .object(let members) = value else {
            problems.add(path.isEmpty ? "body" : path, "must be a JSON object")
            return nil
        }
        self.path = path
        self.members = members
        self.stored = stored?.objectValue
    }

    /// True, marking it read, when this is an update and member `name` is present with
    /// exactly its stored value: the caller keeps the stored field as it is.
    mutating func isUnchanged(_ name: String) -> Bool {
        guard let stored, let mine = peek(name), let before = stored.first(where: { $0.0 == name })?.1,
            mine == before
        else { return false }
        read.insert(name)
        return true
    }

    /// The stored value of member `name` (an update's), for a nested object's own checks.
    func storedValue(_ name: String) -> JSONValue? { stored?.first { $0.0 == name }?.1 }

    func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    /// The member's value (nil when absent), marked as read.
    mutating func value(_ name: String) -> JSONValue? {
        read.insert(name)
        for (k, v) in members where k == name { return v }
        return nil
    }

    func has(_ name: String) -> Bool { members.contains { $0.0 == name } }

    /// A required or defaulted string; `null` is a type error.
    mutating func string(
        _ name: String, required: Bool = false, maxLength: Int, singleLine: Bool = true,
        problems: inout FieldProblems
    ) -> String? {
        switch value(name) {
        case nil:
            if required { problems.add(field(name), "is required") }
            return nil
        case .string(let s)?:
            if let rule = TextRule.check(s, maxLength: maxLength, singleLine: singleLine) {
                problems.add(field(name), rule)
                return nil
            }
            return s
        default:
            problems.add(field(name), "must be a string")
            return nil
        }
    }

    /// A string or `null` (absent means `null`).
    mutating func nullableString(
        _ name: String, maxLength: Int, singleLine: Bool = true, problems: inout FieldProblems
    ) -> String? {
        if case .null? = peek(name) {
            read.insert(name)
            return nil
        }
        return string(name, maxLength: maxLength, singleLine: singleLine, problems: &problems)
    }

    /// A URL (see `URLRule`), normalised; `required` or else nullable. The scheme is
    /// checked before anything else, so that `java\tscript:` is `url_blocked` rather
    /// than a control-character error.
    mutating func url(
        _ name: String, kind: URLRule.Kind, required: Bool = false, problems: inout FieldProblems
    ) -> String? {
        switch value(name) {
        case nil:
            if required { problems.add(field(name), "is required") }
            return nil
        case .null? where !required:
            return nil
        case .string(let s)?:
            return URLRule.check(s, kind: kind, field: field(name), problems: &problems)
        default:
            problems.add(field(name), "must be a string")
            return nil
        }
    }

    mutating func bool(_ name: String, default fallback: Bool, problems: inout FieldProblems) -> Bool {
        switch value(name) {
        case nil: return fallback
        case .bool(let b)?: return b
        default:
            problems.add(field(name), "must be true or false")
            return fallback
        }
    }

    /// A switch that may be left unset: absent or null is nil.
    mutating func optionalBool(_ name: String, problems: inout FieldProblems) -> Bool? {
        switch value(name) {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default:
            problems.add(field(name), "must be true, false or null")
            return nil
        }
    }

    mutating func int(
        _ name: String, default fallback: Int, range: ClosedRange<Int>, unit: String = "",
        problems: inout FieldProblems
    ) -> Int {
        guard let v = value(name) else { return fallback }
        let suffix = unit.isEmpty ? "" : " " + unit
        guard let n = v.intValue, n >= range.lowerBound, n <= range.upperBound else {
            problems.add(field(name), "must be a whole number from \(range.lowerBound) to \(range.upperBound)\(suffix)")
            return fallback
        }
        return Int(n)
    }

    /// An array (absent means empty); nil, with a problem, for another type or too many items.
    mutating func array(_ name: String, maxItems: Int, problems: inout FieldProblems) -> [JSONValue]? {
        switch value(name) {
        case nil: return []
        case .array(let items)?:
            if items.count > maxItems {
                problems.add(field(name), "must hold at most \(maxItems) items")
                return nil
            }
            return items
        default:
            problems.add(field(name), "must be an array")
            return nil
        }
    }

    /// A nested object, `null` (`.some(nil)`), or absent (`nil`); on an update, with its
    /// stored object, so that its unchanged members are kept too.
    mutating func object(_ name: String, problems: inout FieldProblems) -> InputObject?? {
        guard let v = value(name) else { return nil }
        if case .null = v { return .some(nil) }
        guard let nested = InputObject(v, path: field(name), stored: storedValue(name), problems: &problems)
        else { return nil }
        return .some(nested)
    }

    private func peek(_ name: String) -> JSONValue? {
        for (k, v) in members where k == name { return v }
        return nil
    }

    /// Reports members nobody read: `readOnly` ones as read-only, the rest as unknown.
    func reportUnread(readOnly: Set<String> = [], problems: inout FieldProblems) {
        for (k, _) in members where !read.contains(k) {
            problems.add(field(k), readOnly.contains(k) ? "is read-only" : "is not a known field")
        }
    }
}

/// Rules every free-text field shares.
enum TextRule {
    /// Nil when `text` is 1 to `maxLength` characters (Unicode scalars, as JSON Schema
    /// counts) without control characters (line breaks and tabs allowed when not
    /// `singleLine`); else the broken rule.
    static func check(_ text: String, maxLength: Int, singleLine: Bool = true) -> String? {
        let count = text.unicodeScalars.count
        if count == 0 { return "must not be empty (use null for none where allowed)" }
        if count > maxLength { return "must be at most \(maxLength) characters" }
        for s in text.unicodeScalars where s.value < 0x20 || s.value == 0x7F || (0x80..<0xA0).contains(s.value) {
            if !singleLine && (s == "\n" || s == "\t" || s == "\r") { continue }
            return singleLine
                ? "must be one line without control characters" : "must not contain control characters"
        }
        return nil
    }
}
