/// Percent-decoding and -encoding of query components, without Foundation.
enum PercentCoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`), exactly once.
    ///
    /// A `%` not followed by two hex digits stays as it is (the WHATWG URL parser does
    /// the same), so a stray `%` cannot make a whole value disappear. Nil when the
    /// decoded bytes are not valid UTF-8.
    static func decode<C: Collection>(_ bytes: C, plusAsSpace: Bool) -> String? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let c = bytes[i]
            if c == UInt8(ascii: "%") {
                let h1 = bytes.index(after: i)
                if h1 != bytes.endIndex {
                    let h2 = bytes.index(after: h1)
                    if h2 != bytes.endIndex, let hi = hexValue(bytes[h1]), let lo = hexValue(bytes[h2]) {
                        out.append(hi << 4 | lo)
                        i = bytes.index(after: h2)
                        continue
                    }
                }
                out.append(c)
            } else if c == UInt8(ascii: "+") && plusAsSpace {
                out.append(0x20)
            } else {
                out.append(c)
            }
            i = bytes.index(after: i)
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Encodes every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`) as
    /// `%XX` (upper-case hex). Safe inside any query value: no `&`, `=`, `#`, `+` or `%`
    /// survives raw.
    static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 3)
        for c in bytes {
            if isUnreserved(c) {
                out.append(c)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(c >> 4)])
                out.append(hex[Int(c & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    static func isUnreserved(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
            || c == 0x5F || c == 0x7E
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
