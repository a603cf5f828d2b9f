import Model

/// Writes of tags and of a link's tags on PostgreSQL, as SQLite's.
extension PGTransaction {
    static let upsertTagSQL = """
        INSERT INTO tags (id, name, name_key, color, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, name_key = excluded.name_key, color = excluded.color,
            created_at = excluded.created_at, updated_at = excluded.updated_at
        """
    /// Touches the tag's links before the cascade takes it off them, so that `links_changed`
    /// tells the other edges to forget them; returns their addresses for this edge's caches.
    static let touchLinksOfTagSQL = """
        UPDATE links SET updated_at = links.updated_at FROM link_tags t
        WHERE t.tag_id = $1 AND links.id = t.link_id
        RETURNING links.domain, links.key
        """
    static let insertLinkTagsSQL = """
        INSERT INTO link_tags (link_id, tag_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING
        """

    func putTag(_ tag: Tag) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 6)
        p.text(tag.id)
        p.text(tag.name)
        p.text(TagNames.key(tag.name))
        p.text(tag.color.rawValue)
        p.int(tag.createdAt)
        p.int(tag.updatedAt)
        try db.run("pgt_upsert_tag", Self.upsertTagSQL, p)
    }

    func deleteTag(id: String) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.text(id)
        let touched = try db.run("pgt_touch_links_of_tag", Self.touchLinksOfTagSQL, p)
        let deleted = try db.run("pgt_delete_tag", "DELETE FROM tags WHERE id = $1", p)
        guard deleted.affectedRows > 0 else { return false }
        for r in 0..<touched.rowCount {
            invalidations.append(.link(host: touched.text(r, 0), key: touched.text(r, 1)))
        }
        return true
    }

    /// Replaces the tags of the link `linkId`; `.missingReference(.tag)` for an unknown id.
    func putLinkTags(linkId: String, tagIds: [String]) throws(StoreError) {
        var p = PGParams()
        p.text(linkId)
        try db.run("pgt_delete_link_tags", "DELETE FROM link_tags WHERE link_id = $1", p)
        guard !tagIds.isEmpty else { return }
        p.array(PGParams.textOID, count: tagIds.count) { w in for t in tagIds { w.text(t) } }
        try db.run("pgt_insert_link_tags", Self.insertLinkTagsSQL, p)
    }
}
