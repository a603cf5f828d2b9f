import Model

extension SQLiteQueries {
    static let secretKeyColumns = "id, name, key_hash, hint, created_at, revoked_at, scopes"
    static let selectSecretKey = "SELECT \(secretKeyColumns) FROM secret_keys WHERE key_hash = ?1"
    static let selectSecretKeys = "SELECT \(secretKeyColumns) FROM secret_keys ORDER BY created_at, id"

    static func decodeSecretKey(_ s: SQLiteStatement) -> SecretKeyRecord {
        SecretKeyRecord(
            id: s.text(0), name: s.text(1), keyHash: s.blob(2), hint: s.text(3), createdAt: s.int64(4),
            revokedAt: s.optionalInt64(5), scopes: decodeScopes(s.optionalText(6)))
    }

    /// NULL: every power. Names this binary does not know (a newer one wrote them) are
    /// dropped: the key can do less here, never more.
    static func decodeScopes(_ text: String?) -> [KeyScope]? {
        guard let text else { return nil }
        return text.split(separator: " ").compactMap { KeyScope(rawValue: String($0)) }
    }

    func secretKey(hash: [UInt8]) throws(StoreError) -> SecretKeyRecord? {
        try db.queryFirst(Self.selectSecretKey, { $0.bind(1, hash) }, row: Self.decodeSecretKey)
    }

    func secretKeys() throws(StoreError) -> [SecretKeyRecord] {
        try db.queryAll(Self.selectSecretKeys, row: Self.decodeSecretKey)
    }

    static let publishableKeyColumns = "id, app_id, key_hash, hint, created_at, expires_at, revoked_at"
    static let selectPublishableKey = "SELECT \(publishableKeyColumns) FROM publishable_keys WHERE key_hash = ?1"
    static let selectPublishableKeys =
        "SELECT \(publishableKeyColumns) FROM publishable_keys WHERE app_id = ?1 ORDER BY created_at, id"

    static func decodePublishableKey(_ s: SQLiteStatement) -> PublishableKeyRecord {
        PublishableKeyRecord(
            id: s.text(0), appId: s.text(1), keyHash: s.blob(2), hint: s.text(3), createdAt: s.int64(4),
            expiresAt: s.optionalInt64(5), revokedAt: s.optionalInt64(6))
    }

    func publishableKey(hash: [UInt8]) throws(StoreError) -> PublishableKeyRecord? {
        try db.queryFirst(Self.selectPublishableKey, { $0.bind(1, hash) }, row: Self.decodePublishableKey)
    }

    func publishableKeys(app: String) throws(StoreError) -> [PublishableKeyRecord] {
        try db.queryAll(Self.selectPublishableKeys, { $0.bind(1, app) }, row: Self.decodePublishableKey)
    }

    static let selectSigningKeys = """
        SELECT kid, public_key, secret_key, created_at, retired_at, publish_until
        FROM signing_keys ORDER BY created_at, kid
        """

    func signingKeys() throws(StoreError) -> [SigningKeyRecord] {
        try db.queryAll(Self.selectSigningKeys) { s in
            SigningKeyRecord(
                kid: s.text(0), publicKey: s.blob(1), secretKey: s.blob(2), createdAt: s.int64(3),
                retiredAt: s.optionalInt64(4), publishUntil: s.optionalInt64(5))
        }
    }

    static let selectIdempotencyRecord = """
        SELECT scope, key_hash, request_hash, status, body, created_at
        FROM idempotency_records WHERE scope = ?1 AND key_hash = ?2
        """

    func idempotencyRecord(scope: String, keyHash: [UInt8]) throws(StoreError) -> IdempotencyRecord? {
        try db.queryFirst(
            Self.selectIdempotencyRecord,
            { s in
                s.bind(1, scope)
                s.bind(2, keyHash)
            }
        ) { s in
            IdempotencyRecord(
                scope: s.text(0), keyHash: s.blob(1), requestHash: s.blob(2), status: s.int(3), body: s.blob(4),
                createdAt: s.int64(5))
        }
    }
}
