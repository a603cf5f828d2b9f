import Core
import Model

/// Links: by address (in the class body), by id, in pages, and a domain's claims.
/// `links.id` and `links.key` are `COLLATE "C"` in the schema: pages and claims come
/// in byte order, as from SQLite, straight from the indexes.
extension PGQueries {
    /// The columns a link's write sets.
    static let linkInsertColumns = """
        id, domain, key, url, enabled, app_id, route, referral_code, metadata, dynamic_keys, deep_view, \
        has_preview, preview_title, preview_description, preview_image_url, created_at, updated_at, track_conversions, \
        options, external_id
        """
    /// What a read of a link selects: the written columns and its tags' ids (issue 35).
    static let linkColumns = """
        \(linkInsertColumns), \
        (SELECT string_agg(tag_id, ' ' ORDER BY tag_id) FROM link_tags WHERE link_tags.link_id = links.id)
        """
    static let selectLinkByKey = "SELECT \(linkColumns) FROM links WHERE domain = $1 AND key = $2"
    static let selectLinkById = "SELECT \(linkColumns) FROM links WHERE id = $1"
    static let selectLinksPage = "SELECT \(linkColumns) FROM links WHERE id > $1 ORDER BY id LIMIT $2"
    static let selectLinksPageOfDomain =
        "SELECT \(linkColumns) FROM links WHERE domain = $3 AND id > $1 ORDER BY id LIMIT $2"
    /// Only the three columns an association file needs: no metadata to decode.
    static let selectLinkClaims =
        "SELECT key, app_id, enabled FROM links WHERE domain = $1 AND app_id IS NOT NULL ORDER BY key"

    static func decodeLink(_ r: PGResult, _ i: Int) throws(StoreError) -> Link {
        var mobile: MobilePayload?
        if !r.isNull(i, 5) {
            let metadata: JSONValue =
                r.isNull(i, 8)
                ? .object([])
                : try r.withBytes(i, 8) { b throws(StoreError) in try ModelCodec.decodeJSON(b, column: "metadata") }
            let dynamicKeys =
                r.isNull(i, 9)
                ? []
                : try r.withBytes(i, 9) { b throws(StoreError) in
                    try ModelCodec.decodeStrings(b, column: "dynamic_keys")
                }
            mobile = MobilePayload(
                appId: r.text(i, 5), route: r.text(i, 6), referralCode: r.optionalText(i, 7), metadata: metadata,
                dynamicKeys: dynamicKeys, deepView: r.bool(i, 10))
        }
        let preview =
            r.bool(i, 11)
            ? LinkPreview(
                title: r.optionalText(i, 12), description: r.optionalText(i, 13), imageUrl: r.optionalText(i, 14))
            : nil
        var options: LinkOptions?
        if !r.isNull(i, 18) {
            options = try r.withBytes(i, 18) { b throws(StoreError) in
                try LinkOptionsCodec.decode(b, externalId: r.optionalText(i, 19), tagIds: r.optionalText(i, 20))
            }
        } else if !r.isNull(i, 19) || !r.isNull(i, 20) {
            options = try LinkOptionsCodec.decode(nil, externalId: r.optionalText(i, 19), tagIds: r.optionalText(i, 20))
        }
        return Link(
            id: r.text(i, 0), domain: r.text(i, 1), key: r.text(i, 2), url: r.text(i, 3), enabled: r.bool(i, 4),
            mobile: mobile, preview: preview, trackConversions: r.isNull(i, 17) ? nil : r.bool(i, 17),
            options: options, createdAt: r.int(i, 15), updatedAt: r.int(i, 16))
    }

    func link(id: String) throws(StoreError) -> Link? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        return try Self.first(db.run("pgq_link_by_id", Self.selectLinkById, p), Self.decodeLink)
    }

    func links(domain: String?, after: String?, limit: Int) throws(StoreError) -> [Link] {
        guard limit > 0 else { return [] }
        try willQuery()
        var p = PGParams()
        p.text(after ?? "")
        p.int(Int64(limit))
        guard let domain else {
            return try Self.all(db.run("pgq_links_page", Self.selectLinksPage, p), Self.decodeLink)
        }
        p.text(domain)
        return try Self.all(db.run("pgq_links_page_domain", Self.selectLinksPageOfDomain, p), Self.decodeLink)
    }

    func linkClaims(domain: String) throws(StoreError) -> [LinkClaim] {
        try willQuery()
        var p = PGParams()
        p.text(domain)
        return try Self.all(db.run("pgq_link_claims", Self.selectLinkClaims, p)) { r, i in
            LinkClaim(key: r.text(i, 0), appId: r.text(i, 1), enabled: r.bool(i, 2))
        }
    }
}
