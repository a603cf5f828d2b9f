import Core
import Model
import Synchronization

/// The fleet's rate-limit counts in PostgreSQL (`rate_counts`, and each node's mark in
/// `nodes`; decision 0016), on a connection of its own used by the resolver's sync
/// thread only.
///
/// One statement per exchange: the node's mark (`nodes.rate_synced_at`), the upsert of
/// every key's new admissions (`unnest` of four arrays) and the read of the other nodes'
/// totals for the same keys and of how many nodes are live. A lost connection fails the
/// exchange (the caller keeps its counts for the next one) and is made again on the next
/// call, with a short connect timeout.
///
/// The live nodes are those of `nodes` whose mark is younger than `liveMilliseconds` and
/// that did not stop: the row's heartbeat (every 5 s, live for 15 s) is far too slow to
/// say that a node still spends its share, and a stopped node's row stays for `biqli-edge
/// nodes` (its `leave` cleared the mark; its last heartbeat's empty `listening` says it
/// stopped should that have failed). The node's
/// row is its heartbeat's (`PGNodeHeartbeat` claims it before the resolver starts): a
/// process without one is not counted by the others.
public final class PGFleetCounters: FleetCounters, Sendable {
    /// This process's name in `rate_counts`: random, so that a restarted node counts its
    /// previous run's admissions as another node's (they still weigh on the buckets).
    public let node: String
    /// The node's name in `nodes` (`BIQLI_EDGE_NODE`), whose row carries its mark.
    public let name: String
    public let keySeed: [UInt8]
    /// A node is live while its mark is younger than this (milliseconds, the server's clock).
    public static let liveMilliseconds: Int64 = 5_000
    /// The mark is written again once it is this old (every third sync or so, not every
    /// one: each write of `nodes`, a logged table, is a WAL record shipped to standbys).
    public static let markMilliseconds: Int64 = 250
    /// Rows idle for this long are deleted (their buckets have long refilled).
    public static let keepMilliseconds: Int64 = 120_000
    private static let pruneEveryNanoseconds: UInt64 = 10_000_000_000

    private let settings: PGConnectionSettings
    /// The connection and the next prune: the sync thread's (one caller at a time; the
    /// lock is never contended, it lets the compiler check that).
    private let link = Mutex<Link>(Link())

    private struct Link {
        var db: PGConnection?
        var nextPrune: UInt64 = 0
    }

    init(settings: PGConnectionSettings, keySeed: [UInt8], name: String) {
        self.settings = settings.withConnectTimeout(seconds: 2)
        self.keySeed = keySeed
        self.name = name
        var random = SystemRandomNumberGenerator()
        node = "n" + String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16)
    }

    public var isShared: Bool { true }

    public func exchange(_ counts: [FleetCount], nowMicros: Int64) throws(StoreError) -> FleetExchange {
        try link.withLock { (link) throws(StoreError) -> FleetExchange in
            let connection = try connection(&link)
            do throws(StoreError) {
                let result = try run(counts, nowMicros: nowMicros, on: connection)
                let now = Clock.monotonicNanoseconds()
                if now >= link.nextPrune {
                    link.nextPrune = now &+ PGFleetCounters.pruneEveryNanoseconds
                    try prune(on: connection)
                }
                return result
            } catch {
                if connection.isBroken { link.db = nil }
                throw error
            }
        }
    }

    public func leave() {
        link.withLock { link in
            guard let connection = try? connection(&link) else { return }
            var p = PGParams()
            p.text(name)
            _ = try? connection.run("rate_leave", "UPDATE nodes SET rate_synced_at = NULL WHERE name = $1", p)
            link.db = nil
        }
    }

    private func connection(_ link: inout Link) throws(StoreError) -> PGConnection {
        if let db = link.db, db.isAlive() { return db }
        link.db = nil
        let fresh = try PGConnection.connect(settings)
        // The mark is worth nothing after a crash of the server: an exchange need not wait
        // for its WAL to reach the disk (or a synchronous standby). The counts are UNLOGGED.
        try fresh.execute("SET synchronous_commit = off")
        link.db = fresh
        return fresh
    }

    static let exchangeSQL = """
        WITH input AS (
            SELECT * FROM unnest($2::int8[], $3::int8[], $4::int8[], $5::int8[])
                WITH ORDINALITY AS t(bucket, key, added, own_tat, ord)
        ), clock AS (
            SELECT (extract(epoch FROM clock_timestamp()) * 1000)::int8 AS ms
        ), marked AS (
            UPDATE nodes SET rate_synced_at = clock.ms FROM clock
            WHERE name = $8 AND (rate_synced_at IS NULL OR rate_synced_at <= clock.ms - $9)
        ), counted AS (
            INSERT INTO rate_counts (bucket, key, node, count, own_tat, updated_at)
            SELECT bucket, key, $1, added, own_tat, clock.ms FROM input, clock
            ON CONFLICT (bucket, key, node) DO UPDATE SET count = rate_counts.count + excluded.count,
                own_tat = excluded.own_tat, updated_at = excluded.updated_at
        )
        SELECT 0::int8,
            1 + (SELECT count(*) FROM nodes, clock
                 WHERE name <> $8 AND rate_synced_at > clock.ms - $7 AND listening <> ''),
            0::int8
        UNION ALL
        SELECT i.ord, coalesce(sum(r.count), 0)::int8, coalesce(sum(greatest(r.own_tat - $6, 0)), 0)::int8
        FROM input i LEFT JOIN rate_counts r ON r.bucket = i.bucket AND r.key = i.key AND r.node <> $1
        GROUP BY i.ord
        """

    private func run(_ counts: [FleetCount], nowMicros: Int64, on db: PGConnection) throws(StoreError)
        -> FleetExchange
    {
        var p = PGParams(capacity: 9)
        p.text(node)
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(Int64(c.bucket)) } }
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(Int64(bitPattern: c.key)) } }
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(c.added) } }
        p.array(PGParams.int8OID, count: counts.count) { a in for c in counts { a.int(c.ownTAT) } }
        p.int(nowMicros)
        p.int(PGFleetCounters.liveMilliseconds)
        p.text(name)
        p.int(PGFleetCounters.markMilliseconds)
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

    /// Deletes rows nobody updated for `keepMilliseconds`. (Rows of `nodes` stay: they are
    /// the heartbeats' and `biqli-edge nodes` lists them.)
    private func prune(on db: PGConnection) throws(StoreError) {
        var p = PGParams()
        p.int(PGFleetCounters.keepMilliseconds)
        try db.run(
            "rate_prune_counts",
            "DELETE FROM rate_counts WHERE updated_at < (extract(epoch FROM clock_timestamp()) * 1000)::int8 - $1", p)
    }
}

extension PGStore {
    /// The fleet's rate-limit counts on this database for the node named `node` (its row
    /// in `nodes` is its heartbeat's), with the bucket-key seed every node shares (made by
    /// the first node that asks). Connects on first use.
    public func fleetCounters(node: String) throws(StoreError) -> PGFleetCounters {
        let seed = try sharedSecret(named: "rate_limit_key") {
            var random = SystemRandomNumberGenerator()
            return (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        return PGFleetCounters(settings: settings, keySeed: seed, name: node)
    }
}
