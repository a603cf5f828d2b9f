/// PostgreSQL schema version 18: the in-app browsers' escapes (issue 36, decision 0033), as
/// SQLite's 18: `in_app_escape_settings` (the workspace's switches, one row, JSON text) and
/// `domains.alternate_hostname` (unique when set).
///
/// Additive (`compatible_from` stays): an older binary beside it ignores both. The settings
/// are part of the catalog snapshot, so their changes move `catalog_version` and notify the
/// other edges as a domain's do.
enum PGSchemaV18 {
    static let sql = """
        CREATE TABLE in_app_escape_settings (
            id bigint NOT NULL CONSTRAINT in_app_escape_settings_pkey PRIMARY KEY CHECK (id = 1),
            switches text NOT NULL,
            updated_at bigint NOT NULL
        );
        CREATE TRIGGER in_app_escape_settings_changed
            AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON in_app_escape_settings
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_catalog_changed();
        ALTER TABLE domains ADD COLUMN alternate_hostname text;
        CREATE UNIQUE INDEX domains_alternate_hostname ON domains(alternate_hostname)
            WHERE alternate_hostname IS NOT NULL;
        """
}
