/// Percent-decoding and -encoding of query components, without Foundation.
public enum PercentCoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`), exactly once.
    ///
    /// Nil when a `%` is not followed by two hex digits or when the decoded bytes are
    /// not valid UTF-8: the same rule as the resolver's query parsing, so a value is
    /// either captured identically by a visit and by an app-link open, or by neither.
    public static func decode<C: Collection>(_ bytes: C, plusAsSpace: Bool) -> String? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var it = bytes.makeIterator()
        while let c = it.next() {
            if c == UInt8(ascii: "%") {
                guard let hi = it.next().flatMap(hexValue), let lo = it.next().flatMap(hexValue) else { return nil }
                out.append(hi << 4 | lo)
            } else if c == UInt8(ascii: "+") && plusAsSpace {
                out.append(0x20)
            } else {
                out.append(c)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Encodes every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`) as
    /// `%XX` (upper-case hex). Safe inside any query value: no `&`, `=`, `#`, `+` or `%`
    /// survives raw.
    public static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ encodeBytes($0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { encodeBytes($0) }
    }

    /// The same, for a `String`'s UTF-8 (the Play referrer, on every Android visit).
    public static func encode(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { encodeBytes($0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func encodeBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: max(encodedCount(bytes), 1)) { out in encode(bytes, into: out, at: 0) }
    }

    /// Bytes `encode(_:into:at:)` writes for `bytes`.
    public static func encodedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        unreservedTable.withUnsafeBufferPointer { table in
            // 256 entries, indexed by a byte: the loads need no bounds check.
            guard let flags = table.baseAddress else { return bytes.count }
            var count = bytes.count
            for c in bytes { count += 2 &- 2 &* Int(flags[Int(c)]) }
            return count
        }
    }

    /// 1 for the bytes of RFC 3986's unreserved set, by byte: one load a byte, where the
    /// comparisons cost seven (the in-app intents encode several hundred bytes a visit).
    private static let unreservedTable: [UInt8] = (0...255).map { isUnreserved(UInt8($0)) ? 1 : 0 }

    /// The encoding of `bytes` written into `out` from index `at` (room for
    /// `encodedCount(bytes)` needed); returns the index after it. For a string that is
    /// assembled from several parts in one allocation (the Play URL).
    public static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at: Int)
        -> Int
    {
        hexDigits.withUnsafeBufferPointer { hex in
            unreservedTable.withUnsafeBufferPointer { table in
                guard let flags = table.baseAddress else { return at }
                var o = at
                for c in bytes {
                    if flags[Int(c)] != 0 {
                        out[o] = c
                        o += 1
                    } else {
                        out[o] = UInt8(ascii: "%")
                        out[o + 1] = hex[Int(c >> 4)]
                        out[o + 2] = hex[Int(c & 0x0F)]
                        o += 3
                    }
                }
                return o
            }
        }
    }

    @inline(__always)
    public static func isUnreserved(_ c: UInt8) -> Bool {
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

/// `application/x-www-form-urlencoded` pairs of a URL query, as browsers'
/// `URLSearchParams` read them: split on `&`, `+` is a space, `%XX` decoded once.
/// A pair whose escapes are malformed or whose bytes are not UTF-8 is dropped; a
/// name without `=` has the empty value.
public enum QueryString {
    public static func pairs(_ query: Substring) -> [(String, String)] {
        var out: [(String, String)] = []
        for part in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let eq = part.firstIndex(of: UInt8(ascii: "="))
            let name = eq.map { part[part.startIndex..<$0] } ?? part
            let value = eq.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
            guard let n = PercentCoding.decode(name, plusAsSpace: true),
                let v = PercentCoding.decode(value, plusAsSpace: true)
            else { continue }
            out.append((n, v))
        }
        return out
    }
}
