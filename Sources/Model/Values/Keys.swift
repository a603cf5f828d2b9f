/// A workspace secret key (`biqli_sk_...`). Only the SHA-256 of the key is stored.
public struct SecretKeyRecord: Sendable, Equatable {
    /// Public identifier used by `keys list` / `keys revoke` (`sk_` + ULID).
    public var id: String
    public var name: String
    public var keyHash: [UInt8]
    /// Last four characters, to tell keys apart in listings.
    public var hint: String
    public var createdAt: Int64
    public var revokedAt: Int64?
    /// What the key may do; nil for every power (keys made before scopes, or without
    /// `--scope`). Never empty when set.
    public var scopes: [KeyScope]?

    public init(
        id: String, name: String, keyHash: [UInt8], hint: String, createdAt: Int64, revokedAt: Int64? = nil,
        scopes: [KeyScope]? = nil
    ) {
        self.id = id
        self.name = name
        self.keyHash = keyHash
        self.hint = hint
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.scopes = scopes
    }

    /// True when the key holds `scope` (a key without scopes holds them all).
    public func allows(_ scope: KeyScope) -> Bool { scopes.map { $0.contains(scope) } ?? true }
}

/// A Mobile App publishable key (`biqli_mobile_pk_...`), stored hashed.
///
/// Rotation: the new key is active; the previous one keeps working until
/// `expiresAt` (the app's overlap), then is refused. Deleting the app revokes all.
public struct PublishableKeyRecord: Sendable, Equatable {
    public var id: String
    public var appId: String
    public var keyHash: [UInt8]
    public var hint: String
    public var createdAt: Int64
    /// Set when the key was rotated out: it works until then.
    public var expiresAt: Int64?
    public var revokedAt: Int64?

    public init(
        id: String, appId: String, keyHash: [UInt8], hint: String, createdAt: Int64, expiresAt: Int64? = nil,
        revokedAt: Int64? = nil
    ) {
        self.id = id
        self.appId = appId
        self.keyHash = keyHash
        self.hint = hint
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// Usable at `now` (milliseconds).
    public func isUsable(at now: Int64) -> Bool {
        if revokedAt != nil { return false }
        if let e = expiresAt, now >= e { return false }
        return true
    }
}

/// An Ed25519 key that signs attribution receipts.
///
/// The newest key signs; a retired key stays published in the JWKS until
/// `publishUntil`, after every receipt it signed has expired.
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    public var publicKey: [UInt8]
    public var secretKey: [UInt8]
    public var createdAt: Int64
    public var retiredAt: Int64?
    public var publishUntil: Int64?

    public init(
        kid: String, publicKey: [UInt8], secretKey: [UInt8], createdAt: Int64, retiredAt: Int64? = nil,
        publishUntil: Int64? = nil
    ) {
        self.kid = kid
        self.publicKey = publicKey
        self.secretKey = secretKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.publishUntil = publishUntil
    }
}
