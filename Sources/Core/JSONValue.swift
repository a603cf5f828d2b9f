/// A parsed JSON document.
///
/// Objects keep their members in source order (`[(key, value)]`) so that documents
/// we render (association files, API answers) come out in the order we wrote them,
/// and so that a parser can see duplicate keys instead of silently keeping one.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Integers that fit in 64 bits stay exact; everything else is a Double.
    case int(Int64)
    /// An integer past 64 bits that the edge computed (a sum of sales' amounts, decision
    /// 0029), written with all its digits. The parser never makes one; `integer(_:)` does,
    /// only when `.int` cannot hold the value.
    case wideInt(Int128)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
        case (.wideInt(let a), .wideInt(let b)): return a == b
        case (.int(let a), .wideInt(let b)), (.wideInt(let b), .int(let a)): return Int128(a) == b
        case (.wideInt(let a), .double(let b)), (.double(let b), .wideInt(let a)): return Double(a) == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            // Member order does not change a JSON object's meaning.
            guard a.count == b.count else { return false }
            let sortedA = a.sorted { $0.0 < $1.0 }
            let sortedB = b.sorted { $0.0 < $1.0 }
            for (x, y) in zip(sortedA, sortedB) where x.0 != y.0 || x.1 != y.1 { return false }
            return true
        default: return false
        }
    }
}

extension JSONValue {
    /// The member named `key` of an object (the first one, if a caller allowed duplicates).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for (k, v) in members where k == key { return v }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [(String, JSONValue)]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Nesting depth: scalars are 0, `{}` and `[]` are 1.
    public var depth: Int {
        switch self {
        case .array(let a): return 1 + (a.map(\.depth).max() ?? 0)
        case .object(let o): return 1 + (o.map(\.1.depth).max() ?? 0)
        default: return 0
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue {
    /// `.string(s)` or `.null` when `s` is nil: the common shape of optional API fields.
    public static func string(orNull s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    public static func int(orNull i: Int?) -> JSONValue { i.map { .int(Int64($0)) } ?? .null }
    /// `.int` when the value fits 64 bits, else `.wideInt`: a JSON number either way.
    public static func integer(_ i: Int128) -> JSONValue { Int64(exactly: i).map { .int($0) } ?? .wideInt(i) }
}
