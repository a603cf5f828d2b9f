import CSodium
import Core

/// A Content-Security-Policy nonce: 18 fresh random bytes (144 bits) from libsodium, base64url.
///
/// One per response: the page's `<script nonce="...">` and the `script-src 'nonce-...'` of the
/// same response carry it, nothing else does, and it is never reused.
public struct CSPNonce: Sendable, Hashable, CustomStringConvertible {
    /// Random bytes per nonce (CSP asks for at least 128 bits).
    public static let byteCount = 18

    /// The base64url text (24 characters, within the CSP `base64-value` grammar).
    public let value: String

    /// A new nonce from libsodium's CSPRNG (`randombytes_buf`; the edge selects its
    /// per-thread generator, so this is no system call).
    public static func fresh() -> CSPNonce {
        precondition(Sodium.ready, "sodium_init failed")
        var bytes = [UInt8](repeating: 0, count: byteCount)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return CSPNonce(randomBytes: bytes)
    }

    /// The nonce of `byteCount` bytes the caller took from a CSPRNG (tests).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == CSPNonce.byteCount, "a CSP nonce takes exactly \(CSPNonce.byteCount) bytes")
        value = Base64URL.encode(randomBytes)
    }

    init(value: String) {
        self.value = value
    }

    public var description: String { value }
}

/// libsodium initialisation, done once by whichever caller needs it first (thread-safe lazy global).
enum Sodium {
    static let ready: Bool = sodium_init() >= 0
}
