/// Percent-decoding of one path segment (`%XX` once, `+` kept): the value a route that
/// decodes its parameters is handed, and what decides whether such a route matches.
public enum PercentDecoding {
    /// The decoded segment; nil when a `%` is not followed by two hex digits or the bytes
    /// are not UTF-8.
    public static func segment<S: StringProtocol>(_ text: S) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var it = text.utf8.makeIterator()
        while let c = it.next() {
            if c == UInt8(ascii: "%") {
                guard let hi = it.next().flatMap(hex), let lo = it.next().flatMap(hex) else { return nil }
                out.append(hi << 4 | lo)
            } else {
                out.append(c)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
