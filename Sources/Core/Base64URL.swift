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
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var it = bytes.makeIterator()
        while let a = it.next() {
            let b = it.next()
            let c = it.next()
            out.append(alphabet[Int(a >> 2)])
            out.append(alphabet[Int((a & 0x03) << 4 | (b ?? 0) >> 4)])
            if let b {
                out.append(alphabet[Int((b & 0x0F) << 2 | (c ?? 0) >> 6)])
                if let c { out.append(alphabet[Int(c & 0x3F)]) }
            }
        }
        return String(decoding: out, as: UTF8.self)
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
        text.utf8.allSatisfy { reverse[Int($0)] >= 0 }
    }
}
