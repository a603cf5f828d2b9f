import Model

/// Writes of tags and of a link's tags on SQLite (issue 35).
extension SQLiteTransaction {
    static let upsertTagSQL = """
        INSERT INTO tags (id, name, name_key, color, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, name_key = excluded.name_key, color = excluded.color,
            created_at = excluded.created_at, updated_at = excluded.updated_at
        """
    static let selectAddressesOfTag = """
        SELECT links.domain, links.key FROM link_tags t JOIN links ON links.id = t.link_id WHERE t.tag_id = ?1
        """

    func putTag(_ tag: Tag) throws(StoreError) {
        try db.execute(Self.upsertTagSQL) { s in
            s.bind(1, tag.id)
            s.bind(2, tag.name)
            s.bind(3, TagNames.key(tag.name))
            s.bind(4, tag.color.rawValue)
            s.bind(5, tag.createdAt)
            s.bind(6, tag.updatedAt)
        }
    }

    /// The cascade takes the tag off its links; the caches forget those links.
    func deleteTag(id: String) throws(StoreError) -> Bool {
        let addresses = try db.queryAll(
            Self.selectAddressesOfTag, { $0.bind(1, id) }, row: { s in (s.text(0), s.text(1)) })
        guard try db.execute("DELETE FROM tags WHERE id = ?1", { $0.bind(1, id) }) > 0 else { return false }
        for (host, key) in addresses { invalidations.append(.link(host: host, key: key)) }
        return true
    }

    /// Replaces the tags of the link `linkId` with `tagIds`; `.missingReference(.tag)` for
    /// an id that is not a tag.
    func putLinkTags(linkId: String, tagIds: [String]) throws(StoreError) {
        try db.execute("DELETE FROM link_tags WHERE link_id = ?1") { $0.bind(1, linkId) }
        for tagId in Set(tagIds) {
            do throws(StoreError) {
                try db.execute("INSERT INTO link_tags (link_id, tag_id) VALUES (?1, ?2)") { s in
                    s.bind(1, linkId)
                    s.bind(2, tagId)
                }
            } catch .missingReference {
                throw .missingReference(.tag)
            }
        }
    }
}
