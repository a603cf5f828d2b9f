/// PostgreSQL schema version 7 (issue 23 item 7, the fleet's loose ends): one table of
/// live nodes. The fleet rate-limit sync marked itself in `rate_nodes` (schema 3) beside
/// the heartbeats in `nodes` (schema 2); it now marks the node's own row:
/// `nodes.rate_synced_at`, the server's clock at the node's last rate-limit sync (NULL:
/// never, or it left). A node divides the buckets while that is younger than a second
/// (`PGFleetCounters.liveMilliseconds`), as its `rate_nodes` row did (decision 0016).
///
/// Nothing of `rate_nodes` is carried over: its rows were one-second marks of processes
/// under random IDs that no node name maps to, and every node marks its row again at its
/// next sync (100 ms). `rate_counts` keeps its rows: they are keyed by those process IDs,
/// not by node names, so that a restarted node counts its previous run's admissions as
/// another node's.
///
/// Kept additive (`compatible_from` stays): older binaries still serve beside it, but
/// their rate-limit syncs fail (their statement names `rate_nodes`), so during a rolling
/// upgrade they decide their limits alone, as while the database is away, until they
/// are replaced; the new nodes do not count them. README, "Nodes and upgrading a fleet".
enum PGSchemaV7 {
    static let sql = """
        ALTER TABLE nodes ADD COLUMN rate_synced_at bigint;
        DROP TABLE rate_nodes;
        """
}
