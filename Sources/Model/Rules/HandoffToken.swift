import Core

/// The opaque handoff token of a deferred deep link: `bqmh_` + 43 base64url
/// characters (32 random bytes, unpadded), exactly 48 characters. The Android SDK
/// rejects anything else.
///
/// The 32 bytes start with the click time (6 bytes of big-endian milliseconds) and
/// continue with 26 random bytes (208 bits): still unguessable, and the handoffs
/// table then grows at its end instead of at random pages (`HandoffKey`; three times
/// the durable writes per second in `bench/store`). The time is the click's, which
/// the click row holds anyway.
///
/// Only `hash(_:)` of a token is ever stored: the time prefix followed by the SHA-256
/// of the whole token text (the layout `HandoffKey` describes); tokens that do not decode fall
/// back to the plain SHA-256, so lookups of junk simply find nothing.
public enum HandoffToken {
    public static let prefix = "bqmh_"
    public static let length = 48
    public static let randomByteCount = 32

    /// A fresh token from the kernel's CSPRNG (`SecureRandom`: a pool per thread, no
    /// system call per token), its time the click's.
    /// The body (`HandoffKey.tokenBody`'s layout) is made on the stack and encoded
    /// straight into the token's one allocation: every Android and Deep View visit
    /// makes one, and the arrays and the string concatenation of `make` cost more than
    /// the random bytes.
    public static func generate(milliseconds: UInt64 = Clock.nowMilliseconds()) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: randomByteCount) { body in
            let time = HandoffKey.timeBytes
            for i in 0..<time { body[i] = HandoffKey.timeByte(milliseconds, i) }
            SecureRandom.fill(UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(body)[time...]))
            let token = String(unsafeUninitializedCapacity: length) { out in
                for (i, byte) in prefixBytes.enumerated() { out[i] = byte }
                let encoded = Base64URL.encode(
                    UnsafeRawBufferPointer(body), into: UnsafeMutableBufferPointer(rebasing: out[prefixBytes.count...]))
                return prefixBytes.count + encoded
            }
            body.update(repeating: 0)  // the secret part lives on in the token only
            return token
        }
    }

    /// The token for given random bytes (tests, and callers with their own RNG).
    public static func make(randomBytes: [UInt8]) -> String {
        precondition(randomBytes.count == randomByteCount, "a handoff token takes exactly 32 random bytes")
        return prefix + Base64URL.encode(randomBytes)
    }

    /// What the store keeps and the resolver looks up (see the type's comment): for a
    /// token whose 43 characters are the canonical encoding of 32 bytes (the last
    /// character's two spare bits zero), its first 6 bytes (the click time) then the
    /// SHA-256 of the token text (the key `HandoffKey` describes); otherwise the SHA-256
    /// alone. Straight from the UTF-8 bytes: it runs on every Android and Deep View
    /// visit and every resolver request with a token.
    public static func hash(_ token: String) -> [UInt8] {
        var token = token
        return token.withUTF8 { u in
            let canonical = isWellFormed(u) && Base64URL.digitValue(u[length - 1]) & 3 == 0
            let count = canonical ? HandoffKey.timeBytes + 32 : 32
            return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                var o = 0
                if canonical {
                    // 8 characters = 48 bits = the 6 time bytes.
                    var bits: UInt64 = 0
                    for i in prefixBytes.count..<(prefixBytes.count + 8) {
                        bits = bits << 6 | UInt64(Base64URL.digitValue(u[i]))
                    }
                    for i in 0..<HandoffKey.timeBytes { out[i] = HandoffKey.timeByte(bits, i) }
                    o = HandoffKey.timeBytes
                }
                SHA256.hash(UnsafeRawBufferPointer(u), into: out.baseAddress! + o)
                initialized = count
            }
        }
    }

    /// `^bqmh_[A-Za-z0-9_-]{43}$`, the check both SDKs apply.
    public static func isWellFormed(_ token: String) -> Bool {
        var token = token
        return token.withUTF8 { isWellFormed($0) }
    }

    /// `isWellFormed` for a token that is a part of a longer text.
    public static func isWellFormed(_ token: Substring) -> Bool {
        var token = token
        return token.withUTF8 { isWellFormed($0) }
    }

    private static func isWellFormed(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard u.count == length, u.starts(with: prefixBytes) else { return false }
        return Base64URL.isAlphabet(UnsafeBufferPointer(rebasing: u[prefixBytes.count...]))
    }

    private static let prefixBytes: [UInt8] = Array(prefix.utf8)
}
