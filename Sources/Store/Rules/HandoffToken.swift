import CSodium
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
/// of the whole token text (`HandoffKey.storageKey`); tokens that do not decode fall
/// back to the plain SHA-256, so lookups of junk simply find nothing.
public enum HandoffToken {
    public static let prefix = "bqmh_"
    public static let length = 48
    public static let randomByteCount = 32

    /// libsodium must be initialised once before its RNG is used; a `static let` runs
    /// its initialiser exactly once, thread-safely.
    private static let sodiumReady: Bool = sodium_init() >= 0

    /// A fresh token from libsodium's CSPRNG (`randombytes_buf`).
    public static func generate(milliseconds: UInt64 = Clock.nowMilliseconds()) -> String {
        precondition(sodiumReady, "libsodium failed to initialise")
        var random = [UInt8](repeating: 0, count: randomByteCount - HandoffKey.timeBytes)
        random.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return make(randomBytes: HandoffKey.tokenBody(milliseconds: milliseconds, random: random))
    }

    /// The token for given random bytes (tests, and callers with their own RNG).
    public static func make(randomBytes: [UInt8]) -> String {
        precondition(randomBytes.count == randomByteCount, "a handoff token takes exactly 32 random bytes")
        return prefix + Base64URL.encode(randomBytes)
    }

    /// What the store keeps and the resolver looks up (see the type's comment).
    public static func hash(_ token: String) -> [UInt8] {
        HandoffKey.storageKey(token: token) ?? HandoffKey.sha256(token)
    }

    /// `^bqmh_[A-Za-z0-9_-]{43}$`, the check both SDKs apply.
    public static func isWellFormed<S: StringProtocol>(_ token: S) -> Bool {
        let u = token.utf8
        guard u.count == length, u.starts(with: prefix.utf8) else { return false }
        return u.dropFirst(prefix.utf8.count).allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
        }
    }
}
