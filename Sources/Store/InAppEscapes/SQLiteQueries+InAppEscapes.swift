import Model

/// The workspace's switches of the in-app escapes (decision 0033 §5).
extension SQLiteQueries {
    static let selectInAppEscapeSettings = "SELECT switches, updated_at FROM in_app_escape_settings WHERE id = 1"

    /// Read from the database: by transactions, and by the writer when it builds the
    /// catalog snapshot (a loop's reader overrides it with the snapshot's).
    func storedInAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings {
        let row = try db.queryFirst(Self.selectInAppEscapeSettings) { s in (s.text(0), s.int64(1)) }
        guard let row else { return .initial }
        return InAppEscapeSettings(switches: try StoredInAppEscapes.decode(row.0), updatedAt: row.1)
    }
}

extension SQLiteTransaction {
    static let upsertInAppEscapeSettingsSQL = """
        INSERT INTO in_app_escape_settings (id, switches, updated_at) VALUES (1, ?1, ?2)
        ON CONFLICT (id) DO UPDATE SET switches = excluded.switches, updated_at = excluded.updated_at
        """

    func putInAppEscapeSettings(_ settings: InAppEscapeSettings) throws(StoreError) {
        try db.execute(Self.upsertInAppEscapeSettingsSQL) { s in
            s.bind(1, StoredInAppEscapes.encode(settings.switches))
            s.bind(2, settings.updatedAt ?? now)
        }
        catalogChanged = true
    }
}
