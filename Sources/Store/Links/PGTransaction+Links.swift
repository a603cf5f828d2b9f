import Model

/// Writes of links on PostgreSQL, as `SQLiteTransaction+Links` (the schema's triggers
/// tell the other edges).
extension PGTransaction {
    // MARK: links

    static let upsertLinkSQL = """
        INSERT INTO links (\(linkInsertColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
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
        var p = PGParams(capacity: 20)
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
        p.text(bytes: LinkOptionsCodec.encode(link.options))
        p.text(link.options?.externalId)
        try db.run("pgt_upsert_link", Self.upsertLinkSQL, p)
        try putLinkTags(linkId: link.id, tagIds: link.options?.tagIds ?? [])
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
}
