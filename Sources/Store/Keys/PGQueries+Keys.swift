import Model

/// Secret, publishable and signing keys, and the management API's idempotency records.
extension PGQueries {
    static let secretKeyColumns = "id, name, key_hash, hint, created_at, revoked_at, scopes"
    static let selectSecretKey = "SELECT \(secretKeyColumns) FROM secret_keys WHERE key_hash = $1"
    static let selectSecretKeys = "SELECT \(secretKeyColumns) FROM secret_keys ORDER BY created_at, id COLLATE \"C\""

    static func decodeSecretKey(_ r: PGResult, _ i: Int) -> SecretKeyRecord {
        SecretKeyRecord(
            id: r.text(i, 0), name: r.text(i, 1), keyHash: r.bytes(i, 2), hint: r.text(i, 3), createdAt: r.int(i, 4),
            revokedAt: r.optionalInt(i, 5), scopes: SQLiteQueries.decodeScopes(r.optionalText(i, 6)))
    }

    func secretKey(hash: [UInt8]) throws(StoreError) -> SecretKeyRecord? {
        try willQuery()
        var p = PGParams()
        p.bytes(hash)
        return try Self.first(db.run("pgq_secret_key", Self.selectSecretKey, p), Self.decodeSecretKey)
    }

    func secretKeys() throws(StoreError) -> [SecretKeyRecord] {
        try willQuery()
        return try Self.all(db.run("pgq_secret_keys", Self.selectSecretKeys), Self.decodeSecretKey)
    }

    static let publishableKeyColumns = "id, app_id, key_hash, hint, created_at, expires_at, revoked_at"
    static let selectPublishableKey = "SELECT \(publishableKeyColumns) FROM publishable_keys WHERE key_hash = $1"
    static let selectPublishableKeys = """
        SELECT \(publishableKeyColumns) FROM publishable_keys WHERE app_id = $1 ORDER BY created_at, id COLLATE "C"
        """

    static func decodePublishableKey(_ r: PGResult, _ i: Int) -> PublishableKeyRecord {
        PublishableKeyRecord(
            id: r.text(i, 0), appId: r.text(i, 1), keyHash: r.bytes(i, 2), hint: r.text(i, 3), createdAt: r.int(i, 4),
            expiresAt: r.optionalInt(i, 5), revokedAt: r.optionalInt(i, 6))
    }

    func publishableKey(hash: [UInt8]) throws(StoreError) -> PublishableKeyRecord? {
        try willQuery()
        var p = PGParams()
        p.bytes(hash)
        return try Self.first(db.run("pgq_publishable_key", Self.selectPublishableKey, p), Self.decodePublishableKey)
    }

    func publishableKeys(app: String) throws(StoreError) -> [PublishableKeyRecord] {
        try willQuery()
        var p = PGParams()
        p.text(app)
        return try Self.all(db.run("pgq_publishable_keys", Self.selectPublishableKeys, p), Self.decodePublishableKey)
    }

    static let selectSigningKeys = """
        SELECT kid, public_key, secret_key, created_at, retired_at, publish_until
        FROM signing_keys ORDER BY created_at, kid COLLATE "C"
        """

    func signingKeys() throws(StoreError) -> [SigningKeyRecord] {
        try willQuery()
        return try Self.all(db.run("pgq_signing_keys", Self.selectSigningKeys)) { r, i in
            SigningKeyRecord(
                kid: r.text(i, 0), publicKey: r.bytes(i, 1), secretKey: r.bytes(i, 2), createdAt: r.int(i, 3),
                retiredAt: r.optionalInt(i, 4), publishUntil: r.optionalInt(i, 5))
        }
    }

    static let selectIdempotencyRecord = """
        SELECT scope, key_hash, request_hash, status, body, created_at
        FROM idempotency_records WHERE scope = $1 AND key_hash = $2
        """

    func idempotencyRecord(scope: String, keyHash: [UInt8]) throws(StoreError) -> IdempotencyRecord? {
        try willQuery()
        var p = PGParams()
        p.text(scope)
        p.bytes(keyHash)
        return try Self.first(db.run("pgq_idempotency_record", Self.selectIdempotencyRecord, p)) { r, i in
            IdempotencyRecord(
                scope: r.text(i, 0), keyHash: r.bytes(i, 1), requestHash: r.bytes(i, 2), status: Int(r.int(i, 3)),
                body: r.bytes(i, 4), createdAt: r.int(i, 5))
        }
    }
}
