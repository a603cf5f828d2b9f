/// Version 11: client-side click tracking (issue 25 item 3, decision 0027). Workspace
/// publishable browser keys (`biqli_pk_...`, stored as their SHA-256, like secret keys)
/// and the one row of the workspace's settings for `POST /api/v1/track/click`: whether it
/// answers, and the hostnames allowed to call it (separated by spaces). Additive.
enum SchemaV11 {
    static let sql = """
        CREATE TABLE browser_keys (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            key_hash BLOB NOT NULL UNIQUE,
            hint TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER
        );
        CREATE TABLE client_click_settings (
            id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
            enabled INTEGER NOT NULL,
            hostnames TEXT NOT NULL,
            updated_at INTEGER NOT NULL
        );
        """
}
