import Model

/// Browser keys and the client-click settings (decision 0027).
extension SQLiteQueries {
    static let browserKeyColumns = "id, name, key_hash, hint, created_at, revoked_at"
    static let selectBrowserKey = "SELECT \(browserKeyColumns) FROM browser_keys WHERE key_hash = ?1"
    static let selectBrowserKeys = "SELECT \(browserKeyColumns) FROM browser_keys ORDER BY created_at, id"
    static let selectClientClickSettings =
        "SELECT enabled, hostnames, updated_at FROM client_click_settings WHERE id = 1"

    static func decodeBrowserKey(_ s: SQLiteStatement) -> BrowserKeyRecord {
        BrowserKeyRecord(
            id: s.text(0), name: s.text(1), keyHash: s.blob(2), hint: s.text(3), createdAt: s.int64(4),
            revokedAt: s.optionalInt64(5))
    }

    func browserKey(hash: [UInt8]) throws(StoreError) -> BrowserKeyRecord? {
        try db.queryFirst(Self.selectBrowserKey, { $0.bind(1, hash) }, row: Self.decodeBrowserKey)
    }

    func browserKeys() throws(StoreError) -> [BrowserKeyRecord] {
        try db.queryAll(Self.selectBrowserKeys, row: Self.decodeBrowserKey)
    }

    func clientClickSettings() throws(StoreError) -> ClientClickSettings {
        try db.queryFirst(Self.selectClientClickSettings) { s in
            ClientClickSettings(
                enabled: s.bool(0), hostnames: StoredHostnames.decode(s.text(1)), updatedAt: s.int64(2))
        } ?? .initial
    }
}

extension SQLiteTransaction {
    static let upsertBrowserKeySQL = """
        INSERT INTO browser_keys (\(browserKeyColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, key_hash = excluded.key_hash, hint = excluded.hint,
            created_at = excluded.created_at, revoked_at = excluded.revoked_at
        """

    func putBrowserKey(_ key: BrowserKeyRecord) throws(StoreError) {
        try db.execute(Self.upsertBrowserKeySQL) { s in
            s.bind(1, key.id)
            s.bind(2, key.name)
            s.bind(3, key.keyHash)
            s.bind(4, key.hint)
            s.bind(5, key.createdAt)
            s.bind(6, key.revokedAt)
        }
    }

    static let upsertClientClickSettingsSQL = """
        INSERT INTO client_click_settings (id, enabled, hostnames, updated_at) VALUES (1, ?1, ?2, ?3)
        ON CONFLICT (id) DO UPDATE SET
            enabled = excluded.enabled, hostnames = excluded.hostnames, updated_at = excluded.updated_at
        """

    func putClientClickSettings(_ settings: ClientClickSettings) throws(StoreError) {
        try db.execute(Self.upsertClientClickSettingsSQL) { s in
            s.bind(1, settings.enabled)
            s.bind(2, StoredHostnames.encode(settings.hostnames))
            s.bind(3, settings.updatedAt ?? now)
        }
    }
}
