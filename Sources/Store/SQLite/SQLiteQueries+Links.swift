extension SQLiteQueries {
    static let selectLinkById = "SELECT \(linkColumns) FROM links WHERE id = ?1"
    static let selectLinksPage = "SELECT \(linkColumns) FROM links WHERE id > ?1 ORDER BY id LIMIT ?2"
    static let selectLinksPageOfDomain =
        "SELECT \(linkColumns) FROM links WHERE domain = ?3 AND id > ?1 ORDER BY id LIMIT ?2"

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
