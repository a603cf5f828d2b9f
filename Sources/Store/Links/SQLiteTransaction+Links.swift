import Model

/// Writes of links on SQLite. Each one records the link readers must forget once the
/// batch commits.
extension SQLiteTransaction {
    // MARK: links

    static let upsertLinkSQL = """
        INSERT INTO links (\(linkInsertColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
        ON CONFLICT (id) DO UPDATE SET
            domain = excluded.domain, key = excluded.key, url = excluded.url, enabled = excluded.enabled,
            app_id = excluded.app_id, route = excluded.route, referral_code = excluded.referral_code,
            metadata = excluded.metadata, dynamic_keys = excluded.dynamic_keys, deep_view = excluded.deep_view,
            has_preview = excluded.has_preview, preview_title = excluded.preview_title,
            preview_description = excluded.preview_description, preview_image_url = excluded.preview_image_url,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            track_conversions = excluded.track_conversions, options = excluded.options,
            external_id = excluded.external_id
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
                if let options = LinkOptionsCodec.encode(link.options) {
                    s.bindText(19, bytes: options)
                } else {
                    s.bindNull(19)
                }
                s.bind(20, link.options?.externalId)
            }
        } catch .missingReference {
            throw .missingReference(try domain(link.domain) == nil ? .domain : .app)
        }
        try putLinkTags(linkId: link.id, tagIds: link.options?.tagIds ?? [])
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
}
