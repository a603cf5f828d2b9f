import Core
import Model

/// The fleet's rate-limit counts in PostgreSQL (`rate_counts`, `rate_nodes`; decision
/// 0016), on a connection of its own used by the resolver's sync thread only.
///
/// One statement per exchange: the heartbeat, the upsert of every key's new admissions
/// (`unnest` of four arrays) and the read of the other nodes' totals for the same keys.
/// A lost connection fails the exchange (the caller keeps its counts for the next one)
/// and is made again on the next call, with a short connect timeout.
public final class PGFleetCounters: FleetCounters, @unchecked Sendable {
    /// This process's name in the tables: random, so that a restarted node starts over.
    public let node: String
    public let keySeed: [UInt8]
    /// A node is live while its heartbeat is younger than this (milliseconds, the
    /// server's clock).
    public static let liveMilliseconds: Int64 = 1_000
    /// Rows idle for this long are deleted (their buckets have long refilled).
    public static let keepMilliseconds: Int64 = 120_000
    private static let pruneEveryNanoseconds: UInt64 = 10_000_000_000

    private let settings: PGConnectionSettings
    /// Touched by the thread that exchanges only.
    private var db: PGConnection?
    private var nextPrune: UInt64 = 0

    init(settings: PGConnectionSettings, keySeed: [UInt8]) {
        self.settings = settings.withConnectTimeout(seconds: 2)
        self.keySeed = keySeed
        var random = SystemRandomNumberGenerator()
        node = "n" + String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16)
    }

    public var isShared: Bool { true }

    public func exchange(_ counts: [FleetCount], nowMicros: Int64) throws(StoreError) -> FleetExchange {
        let connection = try self.connection()
        do throws(StoreError) {
            let result = try run(counts, nowMicros: nowMicros, on: connection)
            let now = Clock.monotonicNanoseconds()
            if now >= nextPrune {
                nextPrune = now &+ PGFleetCounters.pruneEveryNanoseconds
                try prune(on: connection)
            }
            return result
        } catch {
            if connection.isBroken { db = nil }
            throw error
        }
    }

    public func leave() {
        guard let connection = try? self.connection() else { return }
        var p = PGParams()
        p.text(node)
        _ = try? connection.run("rate_leave", "DELETE FROM rate_nodes WHERE node = $1", p)
        db = nil
    }

    private func connection() throws(StoreError) -> PGConnection {
        if let db, db.isAlive() { return db }
        db = nil
        let fresh = try PGConnection.connect(settings)
        db = fresh
        return fresh
    }

    static let exchangeSQL = """
        WITH input AS (
            SELECT * FROM unnest($2::int8[], $3::int8[], $4::int8[], $5::int8[])
                WITH ORDINALITY AS t(bucket, key, added, own_tat, ord)
        ), clock AS (
            SELECT (extract(epoch FROM clock_timestamp()) * 1000)::int8 AS ms
        ), beat AS (
            INSERT INTO rate_nodes (node, seen_at) SELECT $1, ms FROM clock
            ON CONFLICT (node) DO UPDATE SET seen_at = excluded.seen_at
        ), counted AS (
            INSERT INTO rate_counts (bucket, key, node, count, own_tat, updated_at)
            SELECT bucket, key, $1, added, own_tat, clock.ms FROM input, clock
            ON CONFLICT (bucket, key, node) DO UPDATE SET count = rate_counts.count + excluded.count,
                own_tat = excluded.own_tat, updated_at = excluded.updated_at
        )
        SELECT 0::int8, 1 + (SELECT count(*) FROM rate_nodes, clock WHERE node <> $1 AND seen_at > clock.ms - $7),
            0::int8
        UNION ALL
        SELECT i.ord, coalesce(sum(r.count), 0)::int8, coalesce(sum(greatest(r.own_tat - $6, 0)), 0)::int8
        FROM input i LEFT JOIN rate_counts r ON r.bucket = i.bucket AND r.key = i.key AND r.node <> $1
        GROUP BY i.ord
        """

    private func run(_ counts: [FleetCount], nowMicros: Int64, on db: PGConnection) throws(StoreError)
        -> FleetExchange
    {
        var p = PGParams(capacity: 7)
        p.text(node)
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(Int64(c.bucket)) } }
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(Int64(bitPattern: c.key)) } }
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(c.added) } }
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(c.ownTAT) } }
        p.int(nowMicros)
        p.int(PGFleetCounters.liveMilliseconds)
        let rows = try db.run("rate_exchange", PGFleetCounters.exchangeSQL, p)
        var nodes = 1
        var others = [FleetOthers](repeating: FleetOthers(count: 0, backlogMicros: 0), count: counts.count)
        for row in 0..<rows.rowCount {
            let ordinal = Int(rows.int(row, 0))
            if ordinal == 0 {
                nodes = max(1, Int(rows.int(row, 1)))
            } else if ordinal <= counts.count {
                others[ordinal - 1] = FleetOthers(count: rows.int(row, 1), backlogMicros: rows.int(row, 2))
            }
        }
        return FleetExchange(nodes: nodes, others: others)
    }

    /// Deletes rows nobody updated for `keepMilliseconds`, and heartbeats of nodes long gone.
    private func prune(on db: PGConnection) throws(StoreError) {
        var p = PGParams()
        p.int(PGFleetCounters.keepMilliseconds)
        try db.run(
            "rate_prune_counts",
            "DELETE FROM rate_counts WHERE updated_at < (extract(epoch FROM clock_timestamp()) * 1000)::int8 - $1", p)
        try db.run(
            "rate_prune_nodes",
            "DELETE FROM rate_nodes WHERE seen_at < (extract(epoch FROM clock_timestamp()) * 1000)::int8 - $1", p)
    }
}

extension PGStore {
    /// The fleet's rate-limit counts on this database, with the bucket-key seed every node
    /// shares (made by the first node that asks). Connects on first use.
    public func fleetCounters() throws(StoreError) -> PGFleetCounters {
        let seed = try sharedSecret(named: "rate_limit_key") {
            var random = SystemRandomNumberGenerator()
            return (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        return PGFleetCounters(settings: settings, keySeed: seed)
    }
}
