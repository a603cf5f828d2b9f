import Model

/// Writes of the configuration tables: domains, apps, links, keys. Each one records
/// what readers must forget once the batch commits, exactly as
/// `SQLiteTransaction+Catalog` does (the schema's triggers tell the other edges).
extension PGTransaction {
    // MARK: domains

    static let insertDomainSQL = "INSERT INTO domains (\(domainColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    static let upsertDomainSQL = """
        \(insertDomainSQL)
        ON CONFLICT (hostname) DO UPDATE SET
            verified = excluded.verified, deep_view_enabled = excluded.deep_view_enabled,
            root_url = excluded.root_url, not_found_url = excluded.not_found_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions
        """

    private static func params(_ domain: Domain) -> PGParams {
        var p = PGParams(capacity: 8)
        p.text(domain.hostname)
        p.bool(domain.verified)
        p.bool(domain.deepViewEnabled)
        p.text(domain.rootUrl)
        p.text(domain.notFoundUrl)
        p.int(domain.createdAt)
        p.int(domain.updatedAt)
        p.bool(domain.trackConversions)
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

    // MARK: links

    static let upsertLinkSQL = """
        INSERT INTO links (\(linkColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
        ON CONFLICT (id) DO UPDATE SET
            domain = excluded.domain, key = excluded.key, url = excluded.url, enabled = excluded.enabled,
            app_id = excluded.app_id, route = excluded.route, referral_code = excluded.referral_code,
            metadata = excluded.metadata, dynamic_keys = excluded.dynamic_keys, deep_view = excluded.deep_view,
            has_preview = excluded.has_preview, preview_title = excluded.preview_title,
            preview_description = excluded.preview_description, preview_image_url = excluded.preview_image_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions
        """
    static let selectLinkAddress = "SELECT domain, key FROM links WHERE id = $1"

    private func linkAddress(_ id: String) throws(StoreError) -> (host: String, key: String)? {
        var p = PGParams()
        p.text(id)
        let rows = try db.run("pgt_link_address", Self.selectLinkAddress, p)
        return rows.rowCount > 0 ? (rows.text(0, 0), rows.text(0, 1)) : nil
    }

    /// Creates or replaces the link `link.id`. `.conflict(.linkKey)` when another
    /// link has this key on this domain; `.missingReference(.domain | .app)` (told
    /// apart by the foreign key's name, see `PGErrors.referenceNames`).
    func putLink(_ link: Link) throws(StoreError) {
        try willQuery()
        if let old = try linkAddress(link.id) { invalidations.append(.link(host: old.host, key: old.key)) }
        var p = PGParams(capacity: 18)
        p.text(link.id)
        p.text(link.domain)
        p.text(link.key)
        p.text(link.url)
        p.bool(link.enabled)
        let m = link.mobile
        p.text(m?.appId)
        p.text(m?.route)
        p.text(m?.referralCode)
        p.text(bytes: m.map { ModelCodec.encode(json: $0.metadata) })
        p.text(bytes: m.map { ModelCodec.encode(strings: $0.dynamicKeys) })
        p.bool(m?.deepView)
        p.bool(link.preview != nil)
        p.text(link.preview?.title)
        p.text(link.preview?.description)
        p.text(link.preview?.imageUrl)
        p.int(link.createdAt)
        p.int(link.updatedAt)
        p.bool(link.trackConversions)
        try db.run("pgt_upsert_link", Self.upsertLinkSQL, p)
        invalidations.append(.link(host: link.domain, key: link.key))
    }

    func deleteLink(id: String) throws(StoreError) -> Bool {
        try willQuery()
        guard let old = try linkAddress(id) else { return false }
        var p = PGParams()
        p.text(id)
        try db.run("pgt_delete_link", "DELETE FROM links WHERE id = $1", p)
        invalidations.append(.link(host: old.host, key: old.key))
        return true
    }

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
