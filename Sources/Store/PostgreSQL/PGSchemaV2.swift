/// PostgreSQL schema version 2: what several edges on one database share (issue 17).
///
/// - `nodes`: one row per edge process name, its version and heartbeat
///   (`biqli-edge nodes` lists them; the fleet's rate limits count the live ones).
/// - `fleet_secrets`: secrets every node must hold alike, made once by whichever node
///   comes first: the key of the source-address hash (an iOS click on one node must be
///   a probabilistic candidate for an open on another).
/// - `biqli_schema.compatible_from`: the oldest schema version whose binaries still run
///   correctly on this one. Additive steps (new tables, new nullable columns) keep it, so
///   that during a rolling upgrade the old binaries keep serving beside the new ones; a
///   binary refuses a schema only when its own version is below `compatible_from`.
enum PGSchemaV2 {
    static let sql = """
        ALTER TABLE biqli_schema ADD COLUMN IF NOT EXISTS compatible_from bigint NOT NULL DEFAULT 1;

        CREATE TABLE nodes (
            name text NOT NULL CONSTRAINT nodes_pkey PRIMARY KEY,
            version text NOT NULL,
            schema_version bigint NOT NULL,
            started_at bigint NOT NULL,
            heartbeat_at bigint NOT NULL,
            listening text NOT NULL DEFAULT ''
        );

        CREATE TABLE fleet_secrets (
            name text NOT NULL CONSTRAINT fleet_secrets_pkey PRIMARY KEY,
            value bytea NOT NULL,
            created_at bigint NOT NULL
        );
        """
}
