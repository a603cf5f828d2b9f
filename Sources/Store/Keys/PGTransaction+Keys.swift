import Model

/// Writes of keys and records on PostgreSQL, as `SQLiteTransaction+Keys`.
extension PGTransaction {
    // MARK: keys and records

    static let upsertSecretKeySQL = """
        INSERT INTO secret_keys (\(secretKeyColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, key_hash = excluded.key_hash, hint = excluded.hint,
            created_at = excluded.created_at, revoked_at = excluded.revoked_at, scopes = excluded.scopes
        """

    func putSecretKey(_ key: SecretKeyRecord) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 7)
        p.text(key.id)
        p.text(key.name)
        p.bytes(key.keyHash)
        p.text(key.hint)
        p.int(key.createdAt)
        p.int(key.revokedAt)
        p.text(key.scopes.map(KeyScope.encode))
        try db.run("pgt_upsert_secret_key", Self.upsertSecretKeySQL, p)
    }

    static let upsertPublishableKeySQL = """
        INSERT INTO publishable_keys (\(publishableKeyColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (id) DO UPDATE SET
            app_id = excluded.app_id, key_hash = excluded.key_hash, hint = excluded.hint,
            created_at = excluded.created_at, expires_at = excluded.expires_at, revoked_at = excluded.revoked_at
        """

    /// `.missingReference(.app)` for a usable key of an unknown app. Keys have no
    /// foreign key on purpose: a deleted app's keys stay, revoked (see SQLite's).
    func putPublishableKey(_ key: PublishableKeyRecord) throws(StoreError) {
        try willQuery()
        if key.revokedAt == nil {
            var a = PGParams()
            a.text(key.appId)
            if try db.run("pgt_app_exists", "SELECT 1 FROM mobile_apps WHERE id = $1", a).rowCount == 0 {
                throw .missingReference(.app)
            }
        }
        keysChanged = true
        var p = PGParams(capacity: 7)
        p.text(key.id)
        p.text(key.appId)
        p.bytes(key.keyHash)
        p.text(key.hint)
        p.int(key.createdAt)
        p.int(key.expiresAt)
        p.int(key.revokedAt)
        try db.run("pgt_upsert_publishable_key", Self.upsertPublishableKeySQL, p)
    }

    static let upsertSigningKeySQL = """
        INSERT INTO signing_keys (kid, public_key, secret_key, created_at, retired_at, publish_until)
        VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (kid) DO UPDATE SET
            public_key = excluded.public_key, secret_key = excluded.secret_key, created_at = excluded.created_at,
            retired_at = excluded.retired_at, publish_until = excluded.publish_until
        """

    func putSigningKey(_ key: SigningKeyRecord) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 6)
        p.text(key.kid)
        p.bytes(key.publicKey)
        p.bytes(key.secretKey)
        p.int(key.createdAt)
        p.int(key.retiredAt)
        p.int(key.publishUntil)
        try db.run("pgt_upsert_signing_key", Self.upsertSigningKeySQL, p)
    }

    static let insertIdempotencySQL = """
        INSERT INTO idempotency_records (scope, key_hash, request_hash, status, body, created_at)
        VALUES ($1, $2, $3, $4, $5, $6)
        """

    /// The first answer wins: `.conflict(.idempotencyRecord)` when the key is taken.
    func putIdempotencyRecord(_ record: IdempotencyRecord) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 6)
        p.text(record.scope)
        p.bytes(record.keyHash)
        p.bytes(record.requestHash)
        p.int(Int64(record.status))
        p.bytes(record.body)
        p.int(record.createdAt)
        try db.run("pgt_insert_idempotency_record", Self.insertIdempotencySQL, p)
    }
}
