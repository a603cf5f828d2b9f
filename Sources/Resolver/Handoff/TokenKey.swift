import CSodium

/// `HandoffToken.isWellFormed` and `HandoffToken.hash` (Store) for the
/// resolver's hot path: concrete over a `String`'s UTF-8 bytes, without the
/// generic code and intermediate strings and arrays that cost several
/// microseconds per request across the module boundary. Tests pin equality
/// with the Store's versions.
enum TokenKey {
    static let prefix: [UInt8] = Array("bqmh_".utf8)
    static let length = 48
    static let timeBytes = 6

    /// base64url digit values, -1 outside the alphabet.
    private static let digits: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(c)] = Int8(i)
        }
        return table
    }()

    /// `^bqmh_[A-Za-z0-9_-]{43}$`.
    static func isWellFormed(_ token: String) -> Bool {
        var token = token
        return token.withUTF8 { isWellFormed($0) }
    }

    static func isWellFormed(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard u.count == length, u[0] == 0x62, u[1] == 0x71, u[2] == 0x6D, u[3] == 0x68, u[4] == 0x5F else {
            return false
        }
        return digits.withUnsafeBufferPointer { d in
            for i in prefix.count..<length where d[Int(u[i])] < 0 { return false }
            return true
        }
    }

    /// `HandoffToken.hash(token)`: for a token whose 43 characters are the canonical
    /// encoding of 32 bytes (the last character's two spare bits zero), its first 6
    /// bytes (the click time) then the SHA-256 of the token text; otherwise the
    /// SHA-256 alone.
    static func hash(_ token: String) -> [UInt8] {
        var token = token
        return token.withUTF8 { u in
            let canonical = isWellFormed(u) && digits[Int(u[length - 1])] & 3 == 0
            let count = canonical ? timeBytes + 32 : 32
            return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                var o = 0
                if canonical {
                    // 8 characters = 48 bits = the 6 time bytes.
                    var bits: UInt64 = 0
                    for i in prefix.count..<(prefix.count + 8) { bits = bits << 6 | UInt64(digits[Int(u[i])]) }
                    for i in 0..<timeBytes {
                        out[i] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * (timeBytes - 1 - i)))
                    }
                    o = timeBytes
                }
                if let text = u.baseAddress {
                    _ = crypto_hash_sha256(out.baseAddress! + o, text, UInt64(u.count))
                } else {
                    var none: UInt8 = 0
                    _ = crypto_hash_sha256(out.baseAddress! + o, &none, 0)
                }
                initialized = count
            }
        }
    }
}
