import Model

/// Writes of domains and apps on SQLite. Each one records what readers must forget once
/// the batch commits (the catalog snapshot is rebuilt).
extension SQLiteTransaction {
    // MARK: domains

    static let upsertDomainSQL = """
        INSERT INTO domains (\(domainColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        ON CONFLICT (hostname) DO UPDATE SET
            verified = excluded.verified, deep_view_enabled = excluded.deep_view_enabled,
            root_url = excluded.root_url, not_found_url = excluded.not_found_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions, pass_query = excluded.pass_query,
            alternate_hostname = excluded.alternate_hostname
        """
    static let insertDomainSQL =
        "INSERT INTO domains (\(domainColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"

    private func bindDomain(_ s: SQLiteStatement, _ domain: Domain) {
        s.bind(1, domain.hostname)
        s.bind(2, domain.verified)
        s.bind(3, domain.deepViewEnabled)
        s.bind(4, domain.rootUrl)
        s.bind(5, domain.notFoundUrl)
        s.bind(6, domain.createdAt)
        s.bind(7, domain.updatedAt)
        s.bind(8, domain.trackConversions)
        s.bind(9, domain.passQuery)
        s.bind(10, domain.alternateHostname)
    }

    func putDomain(_ domain: Domain) throws(StoreError) {
        try db.execute(Self.upsertDomainSQL) { s in bindDomain(s, domain) }
        catalogChanged = true
    }

    func insertDomain(_ domain: Domain) throws(StoreError) {
        try db.execute(Self.insertDomainSQL) { s in bindDomain(s, domain) }
        catalogChanged = true
    }

    /// Deleting a domain deletes its links and detaches it from every app.
    func deleteDomain(_ hostname: String) throws(StoreError) -> Bool {
        let deleted = try db.execute("DELETE FROM domains WHERE hostname = ?1") { $0.bind(1, hostname) }
        if deleted > 0 { invalidateAll() }
        return deleted > 0
    }

    // MARK: apps

    static let upsertAppSQL = """
        INSERT INTO mobile_apps (\(appColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, enabled = excluded.enabled, icon_url = excluded.icon_url, ios = excluded.ios,
            android = excluded.android, handoff_lifetime_seconds = excluded.handoff_lifetime_seconds,
            key_overlap_seconds = excluded.key_overlap_seconds, created_at = excluded.created_at,
            updated_at = excluded.updated_at
        """
    static let insertAppDomainSQL = "INSERT INTO app_domains (app_id, hostname, position) VALUES (?1, ?2, ?3)"

    /// Fails with `.missingReference(.domain)` when an attached hostname is not a domain.
    func putApp(_ app: MobileApp) throws(StoreError) {
        try db.execute(Self.upsertAppSQL) { s in
            s.bind(1, app.id)
            s.bind(2, app.name)
            s.bind(3, app.enabled)
            s.bind(4, app.iconUrl)
            if let ios = app.ios { s.bindText(5, bytes: ModelCodec.encode(ios)) } else { s.bindNull(5) }
            if let android = app.android { s.bindText(6, bytes: ModelCodec.encode(android)) } else { s.bindNull(6) }
            s.bind(7, app.handoffLifetimeSeconds)
            s.bind(8, app.keyOverlapSeconds)
            s.bind(9, app.createdAt)
            s.bind(10, app.updatedAt)
        }
        try db.execute("DELETE FROM app_domains WHERE app_id = ?1") { $0.bind(1, app.id) }
        var seen: Set<String> = []
        for (position, host) in app.domains.enumerated() where seen.insert(host).inserted {
            do throws(StoreError) {
                try db.execute(Self.insertAppDomainSQL) { s in
                    s.bind(1, app.id)
                    s.bind(2, host)
                    s.bind(3, position)
                }
            } catch .missingReference {
                throw .missingReference(.domain)
            }
        }
        catalogChanged = true
    }

    static let unlinkAppSQL = """
        UPDATE links SET app_id = NULL, route = NULL, referral_code = NULL, metadata = NULL,
            dynamic_keys = NULL, deep_view = NULL, updated_at = ?2
        WHERE app_id = ?1
        RETURNING \(linkColumns)
        """

    /// Revokes the app's keys, turns its links into plain web links (returned as they now
    /// are), detaches its domains (cascade) and deletes it. Nil (and nothing done) for an
    /// unknown app.
    func deleteApp(_ id: String) throws(StoreError) -> [Link]? {
        guard
            try db.queryFirst("SELECT 1 FROM mobile_apps WHERE id = ?1", { $0.bind(1, id) }, row: { _ in true })
                != nil
        else { return nil }
        keysChanged = true
        try db.execute("UPDATE publishable_keys SET revoked_at = ?2 WHERE app_id = ?1 AND revoked_at IS NULL") { s in
            s.bind(1, id)
            s.bind(2, now)
        }
        let links = try db.queryAll(
            Self.unlinkAppSQL,
            { s in
                s.bind(1, id)
                s.bind(2, now)
            }, row: Self.decodeLink)
        try db.execute("DELETE FROM mobile_apps WHERE id = ?1") { $0.bind(1, id) }
        invalidateAll()
        return links
    }
}
