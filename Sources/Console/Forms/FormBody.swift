import Model

/// An `application/x-www-form-urlencoded` body (or a query string): `name=value` pairs
/// joined by `&`, `+` for a space, `%XX` for a byte, the bytes UTF-8 (WHATWG URL,
/// "application/x-www-form-urlencoded parsing"), decoded by the rule the rest of the
/// edge uses (`PercentCoding`). A name may come more than once; the first value is the
/// one read.
struct FormBody: Sendable, Equatable {
    private(set) var pairs: [(String, String)] = []

    /// Nil when a `%` is not followed by two hex digits or the bytes are not UTF-8:
    /// no browser sends that, so the request is refused rather than guessed at.
    init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        for item in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = item.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentCoding.decode(parts[0], plusAsSpace: true),
                let value = parts.count > 1 ? PercentCoding.decode(parts[1], plusAsSpace: true) : ""
            else { return nil }
            if name.isEmpty && value.isEmpty { continue }
            pairs.append((name, value))
        }
    }

    init(pairs: [(String, String)]) { self.pairs = pairs }

    static func == (a: FormBody, b: FormBody) -> Bool { a.pairs.elementsEqual(b.pairs, by: ==) }

    /// The first value of `name`, nil when absent.
    subscript(_ name: String) -> String? {
        for (n, v) in pairs where n == name { return v }
        return nil
    }

    /// Every value of `name`, in the order sent: a group of checkboxes sharing a name.
    func values(_ name: String) -> [String] {
        pairs.filter { $0.0 == name }.map(\.1)
    }

    /// The value of `name` with surrounding spaces removed ("" when absent): what a text
    /// field of a form means.
    func text(_ name: String) -> String {
        self[name]?.trimmed ?? ""
    }

    /// `value` percent-encoded for a query string or a path segment: everything but
    /// `A-Z a-z 0-9 - . _ ~`.
    static func encode(_ value: String) -> String { PercentCoding.encode(value) }

    /// A path segment: `%XX` decoded (a `+` stays a plus), nil unless well-formed UTF-8.
    static func percentDecode<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        PercentCoding.decode(bytes, plusAsSpace: false)
    }
}
