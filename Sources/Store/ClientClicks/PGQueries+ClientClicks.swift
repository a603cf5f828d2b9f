import Model

/// Browser keys and the client-click settings (decision 0027).
extension PGQueries {
    static let browserKeyColumns = "id, name, key_hash, hint, created_at, revoked_at"
    static let selectBrowserKey = "SELECT \(browserKeyColumns) FROM browser_keys WHERE key_hash = $1"
    static let selectBrowserKeys =
        "SELECT \(browserKeyColumns) FROM browser_keys ORDER BY created_at, id COLLATE \"C\""
    static let selectClientClickSettings =
        "SELECT enabled, hostnames, updated_at FROM client_click_settings WHERE id = 1"

    static func decodeBrowserKey(_ r: PGResult, _ i: Int) -> BrowserKeyRecord {
        BrowserKeyRecord(
            id: r.text(i, 0), name: r.text(i, 1), keyHash: r.bytes(i, 2), hint: r.text(i, 3), createdAt: r.int(i, 4),
            revokedAt: r.optionalInt(i, 5))
    }

    func browserKey(hash: [UInt8]) throws(StoreError) -> BrowserKeyRecord? {
        try willQuery()
        var p = PGParams()
        p.bytes(hash)
        return try Self.first(db.run("pgq_browser_key", Self.selectBrowserKey, p), Self.decodeBrowserKey)
    }

    func browserKeys() throws(StoreError) -> [BrowserKeyRecord] {
        try willQuery()
        return try Self.all(db.run("pgq_browser_keys", Self.selectBrowserKeys), Self.decodeBrowserKey)
    }

    func clientClickSettings() throws(StoreError) -> ClientClickSettings {
        try willQuery()
        let rows = try db.run("pgq_client_click_settings", Self.selectClientClickSettings)
        return try Self.first(rows) { r, i in
            ClientClickSettings(
                enabled: r.bool(i, 0), hostnames: StoredHostnames.decode(r.text(i, 1)), updatedAt: r.int(i, 2))
        } ?? .initial
    }
}

extension PGTransaction {
    static let upsertBrowserKeySQL = """
        INSERT INTO browser_keys (\(browserKeyColumns)) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, key_hash = excluded.key_hash, hint = excluded.hint,
            created_at = excluded.created_at, revoked_at = excluded.revoked_at
        """

    func putBrowserKey(_ key: BrowserKeyRecord) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 6)
        p.text(key.id)
        p.text(key.name)
        p.bytes(key.keyHash)
        p.text(key.hint)
        p.int(key.createdAt)
        p.int(key.revokedAt)
        try db.run("pgt_upsert_browser_key", Self.upsertBrowserKeySQL, p)
    }

    static let upsertClientClickSettingsSQL = """
        INSERT INTO client_click_settings (id, enabled, hostnames, updated_at) VALUES (1, $1, $2, $3)
        ON CONFLICT (id) DO UPDATE SET
            enabled = excluded.enabled, hostnames = excluded.hostnames, updated_at = excluded.updated_at
        """

    func putClientClickSettings(_ settings: ClientClickSettings) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 3)
        p.bool(settings.enabled)
        p.text(StoredHostnames.encode(settings.hostnames))
        p.int(settings.updatedAt ?? now)
        try db.run("pgt_upsert_client_click_settings", Self.upsertClientClickSettingsSQL, p)
    }
}
