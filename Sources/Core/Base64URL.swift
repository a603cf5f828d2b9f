/// Base64url without padding (RFC 4648 §5), as used by tokens, keys and JWS.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// Encodes raw bytes in one pass over a preallocated string buffer.
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: max(encodedCount(bytes.count), 1)) { encode(bytes, into: $0) }
    }

    /// Characters in the encoding of `byteCount` bytes (no padding).
    public static func encodedCount(_ byteCount: Int) -> Int { (byteCount * 4 + 2) / 3 }

    /// Writes the encoding of `bytes` at the start of `out`, which must hold at
    /// least `encodedCount(bytes.count)` bytes; returns how many it wrote. What the
    /// other encoders share, and what lets a caller encode into a buffer it is
    /// filling anyway (a JWS) without an intermediate string.
    @discardableResult
    public static func encode(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        precondition(out.count >= encodedCount(n), "base64url output buffer too small")
        return alphabet.withUnsafeBufferPointer { table in
            var i = 0
            var o = 0
            while i + 3 <= n {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = table[Int(v >> 18)]
                out[o + 1] = table[Int(v >> 12 & 63)]
                out[o + 2] = table[Int(v >> 6 & 63)]
                out[o + 3] = table[Int(v & 63)]
                i += 3
                o += 4
            }
            if n - i == 1 {
                let v = UInt32(bytes[i]) << 16
                out[o] = table[Int(v >> 18)]
                out[o + 1] = table[Int(v >> 12 & 63)]
                o += 2
            } else if n - i == 2 {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
                out[o] = table[Int(v >> 18)]
                out[o + 1] = table[Int(v >> 12 & 63)]
                out[o + 2] = table[Int(v >> 6 & 63)]
                o += 3
            }
            return o
        }
    }

    /// Appends the encoding of `bytes` to `out` (building a JWS without intermediate strings).
    public static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(encodedCount(bytes.count), 1)) { buffer in
            let written = encode(bytes, into: buffer)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<written]))
        }
    }

    public static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        bytes.withUnsafeBytes { append($0, to: &out) }
    }

    /// Decodes unpadded base64url; nil for any character outside the alphabet,
    /// padding, or an impossible length.
    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        if chars.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in chars {
            let v = reverse[Int(c)]
            if v < 0 { return nil }
            acc = acc << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> UInt32(bits)) & 0xFF))
            }
        }
        // Leftover bits must be zero, so that every byte string has exactly one encoding.
        if bits > 0 && (acc & ((1 << UInt32(bits)) - 1)) != 0 { return nil }
        return out
    }

    /// True when every character of `text` is in the base64url alphabet.
    public static func isAlphabet(_ text: Substring) -> Bool {
        var text = text
        return text.withUTF8 { isAlphabet($0) }
    }

    /// True when every byte is a base64url character. The table is fetched once for the
    /// whole run: a token's 43 characters through `digitValue` each cost a call into this
    /// module and a lazy-global check (about 1,500 instructions per handoff token).
    public static func isAlphabet(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        reverse.withUnsafeBufferPointer { table in bytes.allSatisfy { table[Int($0)] >= 0 } }
    }

    /// The 6-bit value of a base64url character, -1 for any other byte.
    @inline(__always)
    public static func digitValue(_ c: UInt8) -> Int8 { reverse[Int(c)] }
}
