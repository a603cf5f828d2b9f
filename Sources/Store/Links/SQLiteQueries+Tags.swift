import Model

/// The reads of tags and of the links' labels (external ids, tags) on SQLite (issue 35).
extension SQLiteQueries {
    static let tagColumns = "id, name, color, created_at, updated_at"
    static let selectTags = "SELECT \(tagColumns) FROM tags ORDER BY id"
    static let selectTag = "SELECT \(tagColumns) FROM tags WHERE id = ?1"
    static let selectLinkByExternalId = "SELECT \(linkColumns) FROM links WHERE external_id = ?1"
    /// `link_tags_tag` (tag_id, link_id): the tag's links in id order, straight from the index.
    static let selectLinksOfTag = """
        SELECT \(linkColumns) FROM link_tags t JOIN links ON links.id = t.link_id
        WHERE t.tag_id = ?1 AND t.link_id > ?2 ORDER BY t.link_id LIMIT ?3
        """

    static func decodeTag(_ s: SQLiteStatement) throws(StoreError) -> Tag {
        guard let color = TagColor(rawValue: s.text(2)) else { throw ModelCodec.corrupt("tags.color") }
        return Tag(id: s.text(0), name: s.text(1), color: color, createdAt: s.int64(3), updatedAt: s.int64(4))
    }

    func tags() throws(StoreError) -> [Tag] {
        try db.queryAll(Self.selectTags, { _ in }, row: Self.decodeTag)
    }

    func tag(id: String) throws(StoreError) -> Tag? {
        try db.queryFirst(Self.selectTag, { $0.bind(1, id) }, row: Self.decodeTag)
    }

    func link(externalId: String) throws(StoreError) -> Link? {
        try db.queryFirst(Self.selectLinkByExternalId, { $0.bind(1, externalId) }, row: Self.decodeLink)
    }

    func links(tagId: String, after: String?, limit: Int) throws(StoreError) -> [Link] {
        guard limit > 0 else { return [] }
        return try db.queryAll(
            Self.selectLinksOfTag,
            { s in
                s.bind(1, tagId)
                s.bind(2, after ?? "")
                s.bind(3, limit)
            }, row: Self.decodeLink)
    }
}
