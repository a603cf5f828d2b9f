/// An ordered list of header fields. Names are kept as given for responses and
/// lower-cased by the parser for requests; lookups are case-insensitive.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [HTTPField]

    public init() { fields = [] }
    public init(_ fields: [(String, String)]) { self.fields = fields.map { HTTPField(name: $0.0, value: $0.1) } }

    public var count: Int { fields.count }

    /// Lets the request parser allocate a request's fields once instead of growing them.
    public mutating func reserveCapacity(_ n: Int) { fields.reserveCapacity(n) }

    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    public mutating func add(_ name: String, _ value: String) { fields.append(HTTPField(name: name, value: value)) }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(HTTPField(name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// The first value of `name`.
    public subscript(_ name: String) -> String? {
        // By index: a for-in copied each field (two retains, two releases) to read its name.
        for i in fields.indices where HTTPHeaders.namesEqual(fields[i].name, name) { return fields[i].value }
        return nil
    }

    public func values(_ name: String) -> [String] {
        fields.filter { HTTPHeaders.namesEqual($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// ASCII case-insensitive comparison without allocating.
    @inlinable
    public static func namesEqual(_ a: String, _ b: String) -> Bool {
        let ua = a.utf8
        let ub = b.utf8
        guard ua.count == ub.count else { return false }
        let fast = ua.withContiguousStorageIfAvailable { pa in
            ub.withContiguousStorageIfAvailable { pb in
                for i in 0..<pa.count where lower(pa[i]) != lower(pb[i]) { return false }
                return true
            }
        }
        if let fast, let result = fast { return result }
        for (x, y) in zip(ua, ub) where lower(x) != lower(y) { return false }
        return true
    }

    @usableFromInline
    static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// True when the comma-separated `list` contains `token` (case-insensitive).
    public static func listContains(_ list: String, _ token: String) -> Bool {
        for part in list.split(separator: ",") {
            if namesEqual(String(part.trimmingSpaces()), token) { return true }
        }
        return false
    }
}

extension Substring {
    /// Drops leading and trailing spaces and tabs (HTTP optional whitespace).
    public func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

/// One header field. A struct rather than a tuple: arrays of tuples of Strings are
/// destroyed through a slow generic path (about 170 instructions per field).
public struct HTTPField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
