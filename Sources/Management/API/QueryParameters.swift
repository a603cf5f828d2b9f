import Core

/// The query of a request, split and percent-decoded (`+` as a space).
struct QueryParameters: Sendable {
    private(set) var pairs: [(String, String)] = []

    init(_ raw: Substring?) throws(ManagementError) {
        guard let raw, !raw.isEmpty else { return }
        for item in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                throw .malformed(FieldProblem("query", "must be percent-encoded UTF-8"))
            }
            if pairs.contains(where: { $0.0 == key }) {
                throw .malformed(FieldProblem(key, "must appear once in the query"))
            }
            pairs.append((key, value))
        }
    }

    subscript(_ name: String) -> String? {
        for (k, v) in pairs where k == name { return v }
        return nil
    }

    /// The whole number `name` holds (`WholeNumber`'s one spelling), `fallback` when
    /// absent; 400 naming it when it is not one or outside `range`.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(ManagementError) -> Int {
        guard let text = self[name] else { return fallback }
        guard let n = WholeNumber.parse(text, in: range) else {
            throw .malformed(
                FieldProblem(
                    name,
                    "must be a whole number from \(range.lowerBound) to \(range.upperBound) (\(WholeNumber.rule))"))
        }
        return n
    }

    /// 400 for a parameter the route does not take.
    func requireOnly(_ allowed: Set<String>) throws(ManagementError) {
        for (k, _) in pairs where !allowed.contains(k) {
            let known = allowed.isEmpty ? "this route takes none" : "known: " + allowed.sorted().joined(separator: ", ")
            throw .malformed(FieldProblem(k, "is not a known query parameter (\(known))"))
        }
    }

    /// A query component: `%XX` once, `+` as a space.
    static func decode<S: StringProtocol>(_ text: S) -> String? { decode(text, plusAsSpace: true) }

    /// A path segment: `%XX` once, `+` kept.
    static func decodePath<S: StringProtocol>(_ text: S) -> String? { decode(text, plusAsSpace: false) }

    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool) -> String? {
        var out: [UInt8] = []
        var it = text.utf8.makeIterator()
        while let c = it.next() {
            if c == UInt8(ascii: "%") {
                guard let hi = it.next().flatMap(hex), let lo = it.next().flatMap(hex) else { return nil }
                out.append(hi << 4 | lo)
            } else {
                out.append(c == UInt8(ascii: "+") && plusAsSpace ? 0x20 : c)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
