import Model

/// Writes of domains and apps on PostgreSQL. Each one records what readers must forget
/// once the batch commits, exactly as `SQLiteTransaction+Catalog` does (the schema's
/// triggers tell the other edges).
extension PGTransaction {
    // MARK: domains

    static let insertDomainSQL =
        "INSERT INTO domains (\(domainColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
    static let upsertDomainSQL = """
        \(insertDomainSQL)
        ON CONFLICT (hostname) DO UPDATE SET
            verified = excluded.verified, deep_view_enabled = excluded.deep_view_enabled,
            root_url = excluded.root_url, not_found_url = excluded.not_found_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions, pass_query = excluded.pass_query,
            alternate_hostname = excluded.alternate_hostname
        """

    private static func params(_ domain: Domain) -> PGParams {
        var p = PGParams(capacity: 10)
        p.text(domain.hostname)
        p.bool(domain.verified)
        p.bool(domain.deepViewEnabled)
        p.text(domain.rootUrl)
        p.text(domain.notFoundUrl)
        p.int(domain.createdAt)
        p.int(domain.updatedAt)
        p.bool(domain.trackConversions)
        p.bool(domain.passQuery)
        p.text(domain.alternateHostname)
        return p
    }

    func putDomain(_ domain: Domain) throws(StoreError) {
        try willQuery()
        try db.run("pgt_upsert_domain", Self.upsertDomainSQL, Self.params(domain))
        catalogChanged = true
    }

    /// `.conflict(.domain)` when the hostname is taken (`domains_pkey`).
    func insertDomain(_ domain: Domain) throws(StoreError) {
        try willQuery()
        try db.run("pgt_insert_domain", Self.insertDomainSQL, Self.params(domain))
        catalogChanged = true
    }

    /// Deleting a domain deletes its links and detaches it from every app (cascades).
    func deleteDomain(_ hostname: String) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        let deleted = try db.run("pgt_delete_domain", "DELETE FROM domains WHERE hostname = $1", p).affectedRows
        if deleted > 0 { invalidateAll() }
        return deleted > 0
    }

    // MARK: apps

    static let upsertAppSQL = """
        INSERT INTO mobile_apps (\(appColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, enabled = excluded.enabled, icon_url = excluded.icon_url, ios = excluded.ios,
            android = excluded.android, handoff_lifetime_seconds = excluded.handoff_lifetime_seconds,
            key_overlap_seconds = excluded.key_overlap_seconds, created_at = excluded.created_at,
            updated_at = excluded.updated_at
        """
    static let insertAppDomainsSQL = """
        INSERT INTO app_domains (app_id, hostname, position) SELECT $1, * FROM unnest($2::text[], $3::int8[])
        """

    /// Fails with `.missingReference(.domain)` when an attached hostname is not a domain.
    func putApp(_ app: MobileApp) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 10)
        p.text(app.id)
        p.text(app.name)
        p.bool(app.enabled)
        p.text(app.iconUrl)
        p.text(bytes: app.ios.map { ModelCodec.encode($0) })
        p.text(bytes: app.android.map { ModelCodec.encode($0) })
        p.int(Int64(app.handoffLifetimeSeconds))
        p.int(Int64(app.keyOverlapSeconds))
        p.int(app.createdAt)
        p.int(app.updatedAt)
        try db.run("pgt_upsert_app", Self.upsertAppSQL, p)
        var id = PGParams()
        id.text(app.id)
        try db.run("pgt_detach_app", "DELETE FROM app_domains WHERE app_id = $1", id)
        // A hostname listed twice keeps its first position (as SQLite's loop does).
        var seen: Set<String> = []
        let attached = app.domains.enumerated().filter { seen.insert($0.element).inserted }
        guard !attached.isEmpty else {
            catalogChanged = true
            return
        }
        var d = PGParams(capacity: 3)
        d.text(app.id)
        d.array(PGParams.textOID, count: attached.count) { w in for a in attached { w.text(a.element) } }
        d.array(PGParams.int8OID, count: attached.count) { w in for a in attached { w.int(Int64(a.offset)) } }
        do throws(StoreError) {
            try db.run("pgt_attach_app", Self.insertAppDomainsSQL, d)
        } catch .missingReference {
            throw .missingReference(.domain)
        }
        catalogChanged = true
    }

    static let revokeAppKeysSQL =
        "UPDATE publishable_keys SET revoked_at = $2 WHERE app_id = $1 AND revoked_at IS NULL"
    static let unlinkAppSQL = """
        UPDATE links SET app_id = NULL, route = NULL, referral_code = NULL, metadata = NULL,
            dynamic_keys = NULL, deep_view = NULL, updated_at = $2
        WHERE app_id = $1
        RETURNING \(linkColumns)
        """

    /// Revokes the app's keys, turns its links into plain web links (returned as they now
    /// are), detaches its domains (cascade) and deletes it. Nil (and nothing done) for an
    /// unknown app.
    func deleteApp(_ id: String) throws(StoreError) -> [Link]? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        guard try db.run("pgt_app_exists", "SELECT 1 FROM mobile_apps WHERE id = $1", p).rowCount > 0 else {
            return nil
        }
        keysChanged = true
        var q = PGParams()
        q.text(id)
        q.int(now)
        try db.run("pgt_revoke_app_keys", Self.revokeAppKeysSQL, q)
        let links = try Self.all(db.run("pgt_unlink_app", Self.unlinkAppSQL, q), Self.decodeLink)
        try db.run("pgt_delete_app", "DELETE FROM mobile_apps WHERE id = $1", p)
        invalidateAll()
        return links
    }
}
