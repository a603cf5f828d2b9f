import Core

/// A Content-Security-Policy nonce: 18 fresh random bytes (144 bits) from the kernel's CSPRNG, base64url.
///
/// One per response: the page's `<script nonce="...">` and the `script-src 'nonce-...'` of the
/// same response carry it, nothing else does, and it is never reused.
public struct CSPNonce: Sendable, Hashable, CustomStringConvertible {
    /// Random bytes per nonce (CSP asks for at least 128 bits).
    public static let byteCount = 18

    /// The base64url text (24 characters, within the CSP `base64-value` grammar).
    public let value: String

    /// A new nonce (`SecureRandom`: a pool per thread, no system call per page).
    public static func fresh() -> CSPNonce {
        CSPNonce(randomBytes: SecureRandom.bytes(byteCount))
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
