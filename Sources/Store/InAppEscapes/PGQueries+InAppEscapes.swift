import Model

/// The workspace's switches of the in-app escapes (decision 0033 §5).
extension PGQueries {
    static let selectInAppEscapeSettings = "SELECT switches, updated_at FROM in_app_escape_settings WHERE id = 1"

    /// Read from the database: by transactions, and when the catalog snapshot is built (a
    /// loop's reader overrides it with the snapshot's).
    func storedInAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings {
        try willQuery()
        let rows = try db.run("pgq_in_app_escape_settings", Self.selectInAppEscapeSettings)
        guard let row = try Self.first(rows, { r, i in (r.text(i, 0), r.int(i, 1)) }) else { return .initial }
        return InAppEscapeSettings(switches: try StoredInAppEscapes.decode(row.0), updatedAt: row.1)
    }
}

extension PGTransaction {
    static let upsertInAppEscapeSettingsSQL = """
        INSERT INTO in_app_escape_settings (id, switches, updated_at) VALUES (1, $1, $2)
        ON CONFLICT (id) DO UPDATE SET switches = excluded.switches, updated_at = excluded.updated_at
        """

    func putInAppEscapeSettings(_ settings: InAppEscapeSettings) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 2)
        p.text(StoredInAppEscapes.encode(settings.switches))
        p.int(settings.updatedAt ?? now)
        try db.run("pgt_upsert_in_app_escape_settings", Self.upsertInAppEscapeSettingsSQL, p)
        catalogChanged = true
    }
}
