import Model

extension SQLiteQueries {
    static let selectLinkById = "SELECT \(linkColumns) FROM links WHERE id = ?1"
    static let selectLinksPage = "SELECT \(linkColumns) FROM links WHERE id > ?1 ORDER BY id LIMIT ?2"
    static let selectLinksPageOfDomain =
        "SELECT \(linkColumns) FROM links WHERE domain = ?3 AND id > ?1 ORDER BY id LIMIT ?2"

    /// Only the three columns an association file needs: no metadata to decode.
    static let selectLinkClaims =
        "SELECT key, app_id, enabled FROM links WHERE domain = ?1 AND app_id IS NOT NULL ORDER BY key"

    func linkClaims(domain: String) throws(StoreError) -> [LinkClaim] {
        try db.queryAll(Self.selectLinkClaims, { $0.bind(1, domain) }) { s in
            LinkClaim(key: s.text(0), appId: s.text(1), enabled: s.bool(2))
        }
    }

    func link(id: String) throws(StoreError) -> Link? {
        try db.queryFirst(Self.selectLinkById, { $0.bind(1, id) }, row: Self.decodeLink)
    }

    func links(domain: String?, after: String?, limit: Int) throws(StoreError) -> [Link] {
        guard limit > 0 else { return [] }
        let sql = domain == nil ? Self.selectLinksPage : Self.selectLinksPageOfDomain
        return try db.queryAll(
            sql,
            { s in
                s.bind(1, after ?? "")
                s.bind(2, limit)
                if let domain { s.bind(3, domain) }
            }, row: Self.decodeLink)
    }
}
