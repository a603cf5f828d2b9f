/// Version 17: what a link may add (issue 35, decision 0032).
///
/// - `links.options`: one JSON text of the rules, variants, UTM, `passQuery`, `expiresAt`
///   and `expiredUrl`, NULL for a link with none of them; parsed when the link is read
///   from the database (the link cache keeps the parsed form), never per visit.
/// - `links.external_id`: the workspace's own id of a link, unique when set.
/// - `tags` and `link_tags`: a tag's name is unique ignoring case through `name_key`
///   (the name lowercased by the edge, so that both backends fold case alike); a link's
///   tags read back in the order of their ids (their creation); deleting a tag or a link
///   removes its rows.
/// - `clicks.variant`: the arm of the link's A/B test the visit got, on the click's own row.
/// - `domains.pass_query`: the domain's default for links that do not say.
/// - `link_variant_counts`: a link's clicks per UTC day and arm, counted by the writer in
///   the click's batch (as `link_click_counts`, pruned with them);
///   `link_variant_conversion_counts`: its leads and sales per day, arm, type and
///   currency (as `link_conversion_counts`, amounts in two columns, kept as they are);
///   `conversion_events.variant`: the arm of the conversion's click, read when the
///   conversion is recorded.
enum SchemaV17 {
    static let sql = """
        ALTER TABLE links ADD COLUMN options TEXT;
        ALTER TABLE links ADD COLUMN external_id TEXT;
        CREATE UNIQUE INDEX links_external_id ON links(external_id) WHERE external_id IS NOT NULL;
        CREATE TABLE tags (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            color TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE link_tags (
            link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
            tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            PRIMARY KEY (link_id, tag_id)
        ) WITHOUT ROWID;
        CREATE INDEX link_tags_tag ON link_tags(tag_id, link_id);
        ALTER TABLE clicks ADD COLUMN variant INTEGER;
        ALTER TABLE domains ADD COLUMN pass_query INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE conversion_events ADD COLUMN variant INTEGER;
        CREATE TABLE link_variant_counts (
            link_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            variant INTEGER NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (link_id, day, variant)
        ) WITHOUT ROWID;
        CREATE INDEX link_variant_counts_day ON link_variant_counts(day);
        CREATE TABLE link_variant_conversion_counts (
            link_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            variant INTEGER NOT NULL,
            type TEXT NOT NULL,
            currency TEXT NOT NULL,
            count INTEGER NOT NULL,
            amount INTEGER NOT NULL,
            amount_high INTEGER NOT NULL,
            PRIMARY KEY (link_id, day, variant, type, currency)
        ) WITHOUT ROWID;
        """
}
