import Model

/// The reads of tags and of the links' labels (external ids, tags) on PostgreSQL, as
/// SQLite's (`SQLiteQueries+Tags`).
extension PGQueries {
    static let tagColumns = "id, name, color, created_at, updated_at"
    static let selectTags = "SELECT \(tagColumns) FROM tags ORDER BY id"
    static let selectTag = "SELECT \(tagColumns) FROM tags WHERE id = $1"
    static let selectLinkByExternalId = "SELECT \(linkColumns) FROM links WHERE external_id = $1"
    /// `link_tags_tag` (tag_id, link_id): the tag's links in id order.
    static let selectLinksOfTag = """
        SELECT \(linkColumns) FROM link_tags t JOIN links ON links.id = t.link_id
        WHERE t.tag_id = $1 AND t.link_id > $2 ORDER BY t.link_id LIMIT $3
        """

    static func decodeTag(_ r: PGResult, _ i: Int) throws(StoreError) -> Tag {
        guard let color = TagColor(rawValue: r.text(i, 2)) else { throw ModelCodec.corrupt("tags.color") }
        return Tag(id: r.text(i, 0), name: r.text(i, 1), color: color, createdAt: r.int(i, 3), updatedAt: r.int(i, 4))
    }

    func tags() throws(StoreError) -> [Tag] {
        try willQuery()
        return try Self.all(db.run("pgq_tags", Self.selectTags), Self.decodeTag)
    }

    func tag(id: String) throws(StoreError) -> Tag? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        return try Self.first(db.run("pgq_tag", Self.selectTag, p), Self.decodeTag)
    }

    func link(externalId: String) throws(StoreError) -> Link? {
        try willQuery()
        var p = PGParams()
        p.text(externalId)
        return try Self.first(db.run("pgq_link_by_external_id", Self.selectLinkByExternalId, p), Self.decodeLink)
    }

    func links(tagId: String, after: String?, limit: Int) throws(StoreError) -> [Link] {
        guard limit > 0 else { return [] }
        try willQuery()
        var p = PGParams()
        p.text(tagId)
        p.text(after ?? "")
        p.int(Int64(limit))
        return try Self.all(db.run("pgq_links_of_tag", Self.selectLinksOfTag, p), Self.decodeLink)
    }
}
