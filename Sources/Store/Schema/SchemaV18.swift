/// Version 18: the in-app browsers' escapes (issue 36, decision 0033 §5 and §4).
///
/// - `in_app_escape_settings`: the workspace's switches, one row (`id` 1) whose `switches`
///   is the JSON object of tag to the escapes allowed; no row: every escape everywhere.
///   Part of the catalog snapshot: a visit never reads it from the database. A link's own
///   switches live in `links.options` (`inAppEscapes`), which needs no column.
/// - `domains.alternate_hostname`: a second name the edge serves as the domain (the iOS
///   "Open in the app" that crosses domains), unique among the alternates; NULL for none.
enum SchemaV18 {
    static let sql = """
        CREATE TABLE in_app_escape_settings (
            id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
            switches TEXT NOT NULL,
            updated_at INTEGER NOT NULL
        );
        ALTER TABLE domains ADD COLUMN alternate_hostname TEXT;
        CREATE UNIQUE INDEX domains_alternate_hostname ON domains(alternate_hostname)
            WHERE alternate_hostname IS NOT NULL;
        """
}
