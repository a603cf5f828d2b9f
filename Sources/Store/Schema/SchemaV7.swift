import Model

/// Version 7: the operator console (issue 19).
///
/// - `console_sessions`: signed-in operators and one-time sign-in links, by the SHA-256
///   of their token (never the token), with the workspace key they act for and their
///   expiry; retention deletes the expired ones through `console_sessions_expires`.
/// - `clicks_link`: a link's newest clicks, by time within the link (then rowid, the
///   order they were written). The first index on `clicks` since decision 0010 took them all
///   away: one more B-tree entry per click (its cost in decision 0019).
/// - `open_events_link`: a link's newest open events.
/// - `links_key`: links whose key starts with a prefix, on every domain, in key order;
///   `links_domain_id`: one domain's links in id order (the list filtered by domain read
///   all the domain's links and sorted them).
///
/// The indexes are built from the rows already there, once: the first start after the
/// upgrade takes time in proportion to the clicks kept.
enum SchemaV7 {
    static let sql = """
        CREATE TABLE console_sessions (
            token_hash BLOB PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL,
            secret_key_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX console_sessions_expires ON console_sessions(expires_at);

        CREATE INDEX clicks_link ON clicks(link_id, at);
        CREATE INDEX open_events_link ON open_events(link_id, at) WHERE link_id IS NOT NULL;
        CREATE INDEX links_key ON links(key, id);
        CREATE INDEX links_domain_id ON links(domain, id);
        """
}
