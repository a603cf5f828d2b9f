/// PostgreSQL schema version 17: what a link may add (issue 35, decision 0032), as
/// SQLite's 17: `links.options` (JSON text), `links.external_id` (unique when set), the
/// tags and the links' tags, `clicks.variant` and `domains.pass_query`, the counts per arm
/// (`link_variant_counts`, `link_variant_conversion_counts`) and `conversion_events.variant`.
///
/// Additive (`compatible_from` stays): an older binary beside it reads links without their
/// options and writes clicks without a variant. Removing a tag from its links touches those
/// links (`links_changed` tells the other edges to forget them).
enum PGSchemaV17 {
    static let sql = """
        ALTER TABLE links ADD COLUMN options text;
        ALTER TABLE links ADD COLUMN external_id text;
        CREATE UNIQUE INDEX links_external_id ON links(external_id) WHERE external_id IS NOT NULL;
        CREATE TABLE tags (
            id text COLLATE "C" NOT NULL CONSTRAINT tags_pkey PRIMARY KEY,
            name text NOT NULL,
            name_key text NOT NULL CONSTRAINT tags_name_key UNIQUE,
            color text NOT NULL,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL
        );
        CREATE TABLE link_tags (
            link_id text COLLATE "C" NOT NULL REFERENCES links(id) ON DELETE CASCADE,
            tag_id text COLLATE "C" NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            CONSTRAINT link_tags_pkey PRIMARY KEY (link_id, tag_id)
        );
        CREATE INDEX link_tags_tag ON link_tags(tag_id, link_id);
        ALTER TABLE clicks ADD COLUMN variant bigint;
        ALTER TABLE domains ADD COLUMN pass_query boolean NOT NULL DEFAULT false;
        ALTER TABLE conversion_events ADD COLUMN variant bigint;
        CREATE TABLE link_variant_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            variant bigint NOT NULL,
            count bigint NOT NULL,
            CONSTRAINT link_variant_counts_pkey PRIMARY KEY (link_id, day, variant)
        );
        CREATE INDEX link_variant_counts_day ON link_variant_counts(day);
        CREATE TABLE link_variant_conversion_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            variant bigint NOT NULL,
            type text COLLATE "C" NOT NULL,
            currency text COLLATE "C" NOT NULL,
            count bigint NOT NULL,
            amount bigint NOT NULL,
            amount_high bigint NOT NULL,
            CONSTRAINT link_variant_conversion_counts_pkey PRIMARY KEY (link_id, day, variant, type, currency)
        );
        """
}
