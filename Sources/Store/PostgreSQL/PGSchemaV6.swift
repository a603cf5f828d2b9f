/// PostgreSQL schema version 6: the operator console (issue 19), as SQLite's version 7
/// (`SchemaV7`): `console_sessions`, a link's newest clicks (`clicks_link`) and open
/// events (`open_events_link`), links by key prefix (`links_key`; the columns are
/// `COLLATE "C"`, so the index is in byte order) and a domain's links by id (`links_domain_id`).
///
/// Additive (`compatible_from` stays): older binaries neither read nor write the new
/// table, and the indexes only cost their inserts. Building an index on the partitioned
/// `clicks` locks its partitions against inserts until the step commits: the other
/// nodes' click writes wait for it, in proportion to the clicks kept (decision 0019).
enum PGSchemaV6 {
    static let sql = """
        CREATE TABLE console_sessions (
            token_hash bytea NOT NULL CONSTRAINT console_sessions_pkey PRIMARY KEY,
            kind text NOT NULL,
            secret_key_id text NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL
        );
        CREATE INDEX console_sessions_expires ON console_sessions(expires_at);

        CREATE INDEX clicks_link ON clicks(link_id, at);
        CREATE INDEX open_events_link ON open_events(link_id, at) WHERE link_id IS NOT NULL;
        CREATE INDEX links_key ON links(key, id);
        CREATE INDEX links_domain_id ON links(domain, id);
        """
}
