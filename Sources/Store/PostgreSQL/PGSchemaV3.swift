/// PostgreSQL schema version 3: the fleet's rate-limit counts (issue 17, decision 0016).
/// Additive: older binaries ignore the tables, so `compatible_from` stays.
///
/// - `rate_counts`: per bucket, key and node, what the node admitted (a running total)
///   and when its own bucket for the key is empty again (`own_tat`, microseconds). Keys
///   are keyed hashes (never an address, a token or an instance ID). Rows not updated
///   for two minutes are deleted: by then they no longer weigh on any bucket.
/// - `rate_nodes`: each running resolver's heartbeat (every sync); the live ones divide
///   the buckets between them. The node is a random ID per process. (Dropped by schema
///   7: the mark is now `nodes.rate_synced_at`.)
///
/// Both are UNLOGGED: counts of the last minute are not worth a WAL record, and a crash
/// of the server (which empties them) only forgets the current minute.
enum PGSchemaV3 {
    static let sql = """
        CREATE UNLOGGED TABLE rate_counts (
            bucket bigint NOT NULL,
            key bigint NOT NULL,
            node text NOT NULL,
            count bigint NOT NULL,
            own_tat bigint NOT NULL,
            updated_at bigint NOT NULL,
            CONSTRAINT rate_counts_pkey PRIMARY KEY (bucket, key, node)
        );

        CREATE UNLOGGED TABLE rate_nodes (
            node text NOT NULL CONSTRAINT rate_nodes_pkey PRIMARY KEY,
            seen_at bigint NOT NULL
        );
        """
}
