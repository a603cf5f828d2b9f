/// When a fleet on PostgreSQL may seal its webhook signing secrets (decision 0031).
///
/// A binary from before schema 16 reads `webhook_endpoints.secret` as the secret itself: a
/// sealed value would give its deliveries no valid signature. So secrets stay as such while
/// any live node runs such a binary (the `nodes` table, as key scopes did: decision 0028's
/// rolling upgrade), and before the first is sealed, `compatible_from` is raised to 16 so that
/// no older binary starts on the database again. Both under the migrations' advisory lock,
/// which a starting binary holds while it reads `compatible_from`.
///
/// One gap is left to the caller: a binary that read `compatible_from` just before it was
/// raised heartbeats only a moment later. So a node seals only once this check has said
/// `open` for longer than a node takes from that read to its first heartbeat
/// (`settleMilliseconds`), still with no older node live.
public enum PGWebhookSealingGate {
    /// The first schema whose binaries read sealed secrets.
    public static let schemaVersion = 16
    /// How long `compatible_from` must have been 16 before a node seals.
    public static let settleMilliseconds: Int64 = 20_000

    public enum Verdict: Sendable, Equatable {
        /// Live nodes run a binary that cannot read sealed secrets.
        case waiting([PGNode])
        /// No older node is live, and none can start (`compatible_from` is 16 or more:
        /// `raised` says whether this check made it so).
        case open(raised: Bool)
    }

    /// Reads the live nodes and raises `compatible_from` when none is older, on a connection
    /// of its own.
    public static func check(settings: PGConnectionSettings) throws(StoreError) -> Verdict {
        let db = try PGConnection.connect(settings)
        try db.execute("BEGIN")
        do throws(StoreError) {
            var lock = PGParams()
            lock.int(PGMigrations.lockKey)
            try db.run("sealing_lock", "SELECT pg_advisory_xact_lock($1)", lock)
            let clock = try db.run("sealing_now", "SELECT \(PGNodeHeartbeat.nowSQL)")
            let now = clock.int(0, 0)
            var p = PGParams()
            p.int(now - PGNodeHeartbeat.liveWithinMilliseconds)
            p.int(Int64(schemaVersion))
            let rows = try db.run(
                "sealing_old_nodes",
                "SELECT name, version, schema_version, started_at, heartbeat_at, listening FROM nodes "
                    + "WHERE heartbeat_at >= $1 AND schema_version < $2 ORDER BY name COLLATE \"C\"", p)
            let old = (0..<rows.rowCount).map { i in
                PGNode(
                    name: rows.text(i, 0), version: rows.text(i, 1), schemaVersion: Int(rows.int(i, 2)),
                    startedAt: rows.int(i, 3), heartbeatAt: rows.int(i, 4), listening: rows.text(i, 5))
            }.filter { $0.state(now: now) == .live }
            guard old.isEmpty else {
                try db.execute("ROLLBACK")
                return .waiting(old)
            }
            let raised = try PGMigrations.compatibleFrom(db) < schemaVersion
            if raised {
                var c = PGParams()
                c.int(Int64(schemaVersion))
                try db.run(
                    "sealing_raise", "UPDATE biqli_schema SET compatible_from = GREATEST(compatible_from, $1)", c)
            }
            try db.execute("COMMIT")
            return .open(raised: raised)
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
