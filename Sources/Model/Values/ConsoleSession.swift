/// A signed-in operator of the console, or a one-time sign-in link not used yet: what
/// the store keeps of it. The token itself (32 random bytes, the cookie's value or the
/// link's `token`) is never stored, only its SHA-256.
public struct ConsoleSession: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A session: the `biqli_console` cookie's token.
        case session
        /// A one-time sign-in link (`serve --demo` prints one): exchanged once for a session.
        case signInLink = "sign_in_link"
    }

    public var tokenHash: [UInt8]
    public var kind: Kind
    /// The workspace secret key (`sk_...`) the operator signed in with: the session lasts
    /// while that key is not revoked.
    public var secretKeyId: String
    /// Unix milliseconds.
    public var createdAt: Int64
    /// Unix milliseconds; the token is refused from then on, and the row pruned.
    public var expiresAt: Int64

    public init(tokenHash: [UInt8], kind: Kind, secretKeyId: String, createdAt: Int64, expiresAt: Int64) {
        self.tokenHash = tokenHash
        self.kind = kind
        self.secretKeyId = secretKeyId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Usable at `now` (milliseconds): before its expiry.
    public func isLive(at now: Int64) -> Bool { now < expiresAt }
}
