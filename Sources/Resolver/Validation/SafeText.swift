/// Character-class checks of the contract, over UTF-8 bytes (no Foundation).
enum SafeText {
    /// `^[A-Za-z0-9._~-]{min,max}$`: eventId, appInstanceId, Idempotency-Key, request ID.
    static func isSafeIdentifier(_ text: String, min: Int, max: Int) -> Bool {
        let u = text.utf8
        guard u.count >= min, u.count <= max else { return false }
        if let ok = u.withContiguousStorageIfAvailable({ buf in buf.allSatisfy { safeTable[Int($0)] } }) { return ok }
        return u.allSatisfy(isSafeByte)
    }

    private static let safeTable: [Bool] = (0..<256).map { isSafeByte(UInt8($0)) }

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

    /// JSON Schema's `maxLength` counts code points.
    static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// Visible ASCII and inner spaces only: what a header value such as
    /// `X-Biq-SDK-Version` may hold.
    static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
