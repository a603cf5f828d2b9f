/// `application/x-www-form-urlencoded` decoding of a URL query, as browsers'
/// `URLSearchParams` do it: pairs split on `&`, `+` is a space, `%XX` escapes.
/// A pair whose escapes are malformed or whose bytes are not UTF-8 is dropped.
enum QueryString {
    static func pairs(_ query: Substring) -> [(String, String)] {
        var out: [(String, String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let eq = part.firstIndex(of: "=") {
                name = part[..<eq]
                value = part[part.index(after: eq)...]
            } else {
                name = part
                value = ""
            }
            guard let n = decode(name), let v = decode(value) else { continue }
            out.append((n, v))
        }
        return out
    }

    static func decode(_ text: Substring) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var it = text.utf8.makeIterator()
        while let c = it.next() {
            switch c {
            case UInt8(ascii: "+"): out.append(0x20)
            case UInt8(ascii: "%"):
                guard let h = it.next().flatMap(hexValue), let l = it.next().flatMap(hexValue) else { return nil }
                out.append(h << 4 | l)
            default: out.append(c)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
