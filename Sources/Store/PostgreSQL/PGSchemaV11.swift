/// PostgreSQL schema version 11: client-side click tracking (issue 25 item 3), as SQLite's 11.
///
/// Additive (`compatible_from` stays): an older binary beside it neither reads nor writes
/// the tables, so it answers no `track/click` (its API has no such route).
enum PGSchemaV11 {
    static let sql = """
        CREATE TABLE browser_keys (
            id text PRIMARY KEY,
            name text NOT NULL,
            key_hash bytea NOT NULL,
            hint text NOT NULL,
            created_at bigint NOT NULL,
            revoked_at bigint,
            CONSTRAINT browser_keys_key_hash UNIQUE (key_hash)
        );
        CREATE TABLE client_click_settings (
            id integer PRIMARY KEY CHECK (id = 1),
            enabled boolean NOT NULL,
            hostnames text NOT NULL,
            updated_at bigint NOT NULL
        );
        """
}
