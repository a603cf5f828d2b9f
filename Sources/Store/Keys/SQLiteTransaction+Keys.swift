import Model

/// Writes of keys and records on SQLite: secret and publishable keys (a publishable
/// key's change moves `publishableKeysVersion`), receipt signing keys, idempotency records.
extension SQLiteTransaction {
    // MARK: keys and records

    static let upsertSecretKeySQL = """
        INSERT INTO secret_keys (\(secretKeyColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, key_hash = excluded.key_hash, hint = excluded.hint,
            created_at = excluded.created_at, revoked_at = excluded.revoked_at, scopes = excluded.scopes
        """

    func putSecretKey(_ key: SecretKeyRecord) throws(StoreError) {
        try db.execute(Self.upsertSecretKeySQL) { s in
            s.bind(1, key.id)
            s.bind(2, key.name)
            s.bind(3, key.keyHash)
            s.bind(4, key.hint)
            s.bind(5, key.createdAt)
            s.bind(6, key.revokedAt)
            s.bind(7, key.scopes.map(KeyScope.encode))
        }
    }

    static let upsertPublishableKeySQL = """
        INSERT INTO publishable_keys (\(publishableKeyColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (id) DO UPDATE SET
            app_id = excluded.app_id, key_hash = excluded.key_hash, hint = excluded.hint,
            created_at = excluded.created_at, expires_at = excluded.expires_at, revoked_at = excluded.revoked_at
        """

    /// `.missingReference(.app)` for a usable key of an unknown app. Keys have no
    /// foreign key on purpose: a deleted app's keys stay, revoked, so a client
    /// still using one is told its key was revoked rather than unknown.
    func putPublishableKey(_ key: PublishableKeyRecord) throws(StoreError) {
        if key.revokedAt == nil,
            try db.queryFirst("SELECT 1 FROM mobile_apps WHERE id = ?1", { $0.bind(1, key.appId) }, row: { _ in true })
                == nil
        {
            throw .missingReference(.app)
        }
        keysChanged = true
        try db.execute(Self.upsertPublishableKeySQL) { s in
            s.bind(1, key.id)
            s.bind(2, key.appId)
            s.bind(3, key.keyHash)
            s.bind(4, key.hint)
            s.bind(5, key.createdAt)
            s.bind(6, key.expiresAt)
            s.bind(7, key.revokedAt)
        }
    }

    static let upsertSigningKeySQL = """
        INSERT INTO signing_keys (kid, public_key, secret_key, created_at, retired_at, publish_until)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (kid) DO UPDATE SET
            public_key = excluded.public_key, secret_key = excluded.secret_key, created_at = excluded.created_at,
            retired_at = excluded.retired_at, publish_until = excluded.publish_until
        """

    func putSigningKey(_ key: SigningKeyRecord) throws(StoreError) {
        try db.execute(Self.upsertSigningKeySQL) { s in
            s.bind(1, key.kid)
            s.bind(2, key.publicKey)
            s.bind(3, key.secretKey)
            s.bind(4, key.createdAt)
            s.bind(5, key.retiredAt)
            s.bind(6, key.publishUntil)
        }
    }

    static let insertIdempotencySQL = """
        INSERT INTO idempotency_records (scope, key_hash, request_hash, status, body, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        """

    /// The first answer wins: `.conflict(.idempotencyRecord)` when the key is taken.
    func putIdempotencyRecord(_ record: IdempotencyRecord) throws(StoreError) {
        try db.execute(Self.insertIdempotencySQL) { s in
            s.bind(1, record.scope)
            s.bind(2, record.keyHash)
            s.bind(3, record.requestHash)
            s.bind(4, record.status)
            s.bind(5, record.body)
            s.bind(6, record.createdAt)
        }
    }
}
