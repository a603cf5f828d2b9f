import Model

/// Writes of the configuration tables: domains, apps, links, keys. Each one
/// records what readers must forget once the batch commits.
extension SQLiteTransaction {
    // MARK: domains

    static let upsertDomainSQL = """
        INSERT INTO domains (\(domainColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT (hostname) DO UPDATE SET
            verified = excluded.verified, deep_view_enabled = excluded.deep_view_enabled,
            root_url = excluded.root_url, not_found_url = excluded.not_found_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions
        """
    static let insertDomainSQL = "INSERT INTO domains (\(domainColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"

    private func bindDomain(_ s: SQLiteStatement, _ domain: Domain) {
        s.bind(1, domain.hostname)
        s.bind(2, domain.verified)
        s.bind(3, domain.deepViewEnabled)
        s.bind(4, domain.rootUrl)
        s.bind(5, domain.notFoundUrl)
        s.bind(6, domain.createdAt)
        s.bind(7, domain.updatedAt)
        s.bind(8, domain.trackConversions)
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

    // MARK: links

    static let upsertLinkSQL = """
        INSERT INTO links (\(linkColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
        ON CONFLICT (id) DO UPDATE SET
            domain = excluded.domain, key = excluded.key, url = excluded.url, enabled = excluded.enabled,
            app_id = excluded.app_id, route = excluded.route, referral_code = excluded.referral_code,
            metadata = excluded.metadata, dynamic_keys = excluded.dynamic_keys, deep_view = excluded.deep_view,
            has_preview = excluded.has_preview, preview_title = excluded.preview_title,
            preview_description = excluded.preview_description, preview_image_url = excluded.preview_image_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions
        """
    static let selectLinkAddress = "SELECT domain, key FROM links WHERE id = ?1"

    /// Creates or replaces the link `link.id`. `.conflict(.linkKey)` when another
    /// link has this key on this domain; `.missingReference(.domain | .app)`.
    func putLink(_ link: Link) throws(StoreError) {
        if let (host, key) = try db.queryFirst(
            Self.selectLinkAddress, { $0.bind(1, link.id) }, row: { s in (s.text(0), s.text(1)) })
        {
            invalidations.append(.link(host: host, key: key))
        }
        do throws(StoreError) {
            try db.execute(Self.upsertLinkSQL) { s in
                s.bind(1, link.id)
                s.bind(2, link.domain)
                s.bind(3, link.key)
                s.bind(4, link.url)
                s.bind(5, link.enabled)
                if let m = link.mobile {
                    s.bind(6, m.appId)
                    s.bind(7, m.route)
                    s.bind(8, m.referralCode)
                    s.bindText(9, bytes: ModelCodec.encode(json: m.metadata))
                    s.bindText(10, bytes: ModelCodec.encode(strings: m.dynamicKeys))
                    s.bind(11, m.deepView)
                } else {
                    for i in Int32(6)...11 { s.bindNull(i) }
                }
                s.bind(12, link.preview != nil)
                s.bind(13, link.preview?.title)
                s.bind(14, link.preview?.description)
                s.bind(15, link.preview?.imageUrl)
                s.bind(16, link.createdAt)
                s.bind(17, link.updatedAt)
                if let track = link.trackConversions { s.bind(18, track) } else { s.bindNull(18) }
            }
        } catch .missingReference {
            throw .missingReference(try domain(link.domain) == nil ? .domain : .app)
        }
        invalidations.append(.link(host: link.domain, key: link.key))
    }

    func deleteLink(id: String) throws(StoreError) -> Bool {
        guard
            let (host, key) = try db.queryFirst(
                Self.selectLinkAddress, { $0.bind(1, id) }, row: { s in (s.text(0), s.text(1)) })
        else { return false }
        try db.execute("DELETE FROM links WHERE id = ?1") { $0.bind(1, id) }
        invalidations.append(.link(host: host, key: key))
        return true
    }

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
