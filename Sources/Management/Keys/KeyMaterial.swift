import CSodium
import Core

/// Formats of the keys the edge issues. Every key is random (libsodium), shown once,
/// and stored only as the SHA-256 of its full text.
enum KeyMaterial {
    static let secretPrefix = "biqli_sk_"
    static let publishablePrefix = "biqli_mobile_pk_"
    /// Workspace browser keys (client-side click tracking, decision 0027).
    static let browserPrefix = "biqli_pk_"

    static func randomBytes(_ count: Int) -> [UInt8] {
        _ = sodiumReady
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// `biqli_sk_` + 43 base64url characters (32 random bytes).
    static func newSecretKey() -> String { secretPrefix + Base64URL.encode(randomBytes(32)) }

    /// `biqli_mobile_pk_` + 64 base64url characters (48 random bytes).
    static func newPublishableKey() -> String { publishablePrefix + Base64URL.encode(randomBytes(48)) }

    /// `biqli_pk_` + 43 base64url characters (32 random bytes).
    static func newBrowserKey() -> String { browserPrefix + Base64URL.encode(randomBytes(32)) }

    /// True when `key` is `prefix` + exactly `count` base64url characters.
    static func isWellFormed(_ key: String, prefix: String, count: Int) -> Bool {
        guard key.hasPrefix(prefix), key.utf8.count == prefix.utf8.count + count else { return false }
        return key.utf8.dropFirst(prefix.utf8.count).allSatisfy {
            ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_")
        }
    }

    static func hash(_ key: String) -> [UInt8] { SHA256.hash(key) }

    /// The last four characters, to tell keys apart in listings without revealing them.
    static func hint(_ key: String) -> String { String(key.suffix(4)) }

    private static let sodiumReady: Bool = sodium_init() >= 0
}
