/// Character-class checks of the contract, over UTF-8 bytes (no Foundation).
enum SafeText {
    /// `^[A-Za-z0-9._~-]{min,max}$`: eventId, appInstanceId, Idempotency-Key, request ID.
    /// Five of these per request: over the string's own bytes, one mask test per byte.
    static func isSafeIdentifier(_ text: String, min: Int, max: Int) -> Bool {
        var text = text
        return text.withUTF8 { u in
            guard u.count >= min, u.count <= max else { return false }
            for c in u where !isSafeByteByMask(c) { return false }
            return true
        }
    }

    /// `isSafeByte` as two bit sets, for bytes 0-63 and 64-127 (tests pin them together).
    private static let safeLow: UInt64 = 1 << 45 | 1 << 46 | (1 << 58 - 1) & ~(1 << 48 - 1)
    private static let safeHigh: UInt64 =
        (1 << 27 - 1) & ~(1 << 1 - 1) | 1 << 31 | (1 << 59 - 1) & ~(1 << 33 - 1) | 1 << 62

    @inline(__always)
    static func isSafeByteByMask(_ c: UInt8) -> Bool {
        // A select rather than branches: the loops over identifiers stay branch-light.
        let mask = c < 64 ? safeLow : safeHigh
        return c < 128 && mask >> (c & 63) & 1 != 0
    }

    /// `isBase64URLByte` the same way: the identifier sets without `.` and `~`.
    @inline(__always)
    static func isBase64URLByteByMask(_ c: UInt8) -> Bool {
        let mask = c < 64 ? safeLow & ~(1 << 46) : safeHigh & ~(1 << 62)
        return c < 128 && mask >> (c & 63) & 1 != 0
    }

    static func isSafeByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    /// `[A-Za-z0-9_-]`: base64url, the alphabet of keys and handoff tokens.
    static func isBase64URLByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    /// Whether `u` starts with `prefix`; with `ignoringCase`, ASCII letters of `u` match
    /// either case (`prefix` is lower-case). A loop over the constant's bytes: zipping
    /// with a string's UTF-8 view costs a generic iterator step per byte.
    static func hasPrefix(_ u: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, ignoringCase: Bool = false) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard u.count >= n else { return false }
        let p = prefix.utf8Start
        let fold: UInt8 = ignoringCase ? 0x20 : 0
        for k in 0..<n where u[k] | fold != p[k] { return false }
        return true
    }

    /// JSON Schema's `maxLength` counts code points.
    static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// `length(text) <= max`, without counting code points when the UTF-8 length
    /// already decides: a code point takes one to four bytes, so at most `max`
    /// bytes means at most `max` code points. (Counting walks the string through
    /// the runtime, a few hundred instructions per field.)
    static func isWithin(_ text: String, max: Int) -> Bool {
        text.utf8.count <= max || length(text) <= max
    }

    /// `(1...max).contains(length(text))`, the same way.
    static func isNonEmpty(_ text: String, within max: Int) -> Bool {
        !text.isEmpty && isWithin(text, max: max)
    }

    /// Visible ASCII and inner spaces only: what a header value such as
    /// `X-Biq-SDK-Version` may hold.
    static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { u in
            for c in u where c < 0x20 || c >= 0x7F { return false }
            return true
        }
    }
}
