import Core
import Model
import XCTest

@testable import Store

/// The fleet's rate-limit counts in PostgreSQL (schema 3, decision 0016; the live nodes
/// in `nodes` since schema 7): what one exchange publishes and what it reads back, the
/// live nodes, and the clean-up.
final class PGFleetCountersTests: XCTestCase {
    var database: PGTestDatabase!
    var settings: PGConnectionSettings!

    override func setUpWithError() throws {
        database = try PGTestDatabase(now: Int64(Clock.nowMilliseconds()))
        settings = try PGConnectionSettings(database.url)
    }

    override func tearDown() {
        database?.drop()
    }

    /// A node's counts, its row in `nodes` made first as its heartbeat's claim makes it.
    private func node(_ name: String) throws -> PGFleetCounters {
        try database.connect().execute(
            """
            INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening)
            VALUES ('\(name)', 'test', 7, 0, (extract(epoch FROM clock_timestamp()) * 1000)::int8, 'http=test')
            """)
        return PGFleetCounters(settings: settings, keySeed: Array(repeating: 1, count: 16), name: name)
    }

    /// The node's mark, milliseconds before the server's clock (nil: none).
    private func markAge(_ name: String) throws -> Int64? {
        try database.connect().run(
            "t_mark",
            "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::int8 - rate_synced_at FROM nodes WHERE name = '\(name)'"
        ).optionalInt(0, 0)
    }

    func testSchemaThreeIsAdditive() throws {
        let db = try database.connect()
        XCTAssertGreaterThanOrEqual(try PGMigrations.version(db), 3)
        XCTAssertEqual(try PGMigrations.compatibleFrom(db), 1, "binaries of schema 1 and 2 run beside it")
        XCTAssertFalse(PGMigrations.breaking.contains(3))
        let unlogged = try db.run(
            "t_unlogged", "SELECT count(*) FROM pg_class WHERE relname = 'rate_counts' AND relpersistence = 'u'")
        XCTAssertEqual(unlogged.int(0, 0), 1)
        XCTAssertFalse(try db.run("t_gone", "SELECT to_regclass('rate_nodes') IS NOT NULL").bool(0, 0), "schema 7")
    }

    func testAnExchangePublishesAndReadsOnlyTheOtherNodesCounts() throws {
        let a = try node("a")
        let b = try node("b")
        let now: Int64 = 1_000_000_000
        let key: UInt64 = 0xFEDC_BA98_7654_3210  // above Int64.max: stored as its bit pattern
        var r = try a.exchange([FleetCount(bucket: 1, key: key, added: 5, ownTAT: now + 10_000_000)], nowMicros: now)
        XCTAssertEqual(r.nodes, 1)
        XCTAssertEqual(r.others, [FleetOthers(count: 0, backlogMicros: 0)])
        r = try b.exchange(
            [
                FleetCount(bucket: 1, key: key, added: 2, ownTAT: now + 4_000_000),
                FleetCount(bucket: 2, key: key, added: 1, ownTAT: now),
            ], nowMicros: now + 1_000_000)
        XCTAssertEqual(r.nodes, 2)
        XCTAssertEqual(
            r.others, [FleetOthers(count: 5, backlogMicros: 9_000_000), FleetOthers(count: 0, backlogMicros: 0)],
            "a's 5, 9 s of a's backlog left; bucket 2 is another bucket")
        r = try a.exchange([FleetCount(bucket: 1, key: key, added: 3, ownTAT: now + 16_000_000)], nowMicros: now)
        XCTAssertEqual(r.others, [FleetOthers(count: 2, backlogMicros: 4_000_000)])
        r = try b.exchange([FleetCount(bucket: 1, key: key, added: 0, ownTAT: now + 4_000_000)], nowMicros: now)
        XCTAssertEqual(r.others, [FleetOthers(count: 8, backlogMicros: 16_000_000)], "running totals")
        let rows = try database.connect().run(
            "t_rows", "SELECT count(*), sum(count)::int8 FROM rate_counts WHERE key = $1",
            {
                var p = PGParams(); p.int(Int64(bitPattern: key)); return p
            }())
        XCTAssertEqual(rows.int(0, 0), 3)
        XCTAssertEqual(rows.int(0, 1), 11)
    }

    func testAnEmptyExchangeMarksTheNodesRowAndLeavingClearsIt() throws {
        let a = try node("a")
        let b = try node("b")
        XCTAssertNil(try markAge("a"), "no sync yet")
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
        XCTAssertEqual(try b.exchange([], nowMicros: 0).nodes, 2)
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 2)
        XCTAssertLessThan(try XCTUnwrap(try markAge("a")), PGFleetCounters.liveMilliseconds)
        b.leave()
        XCTAssertNil(try markAge("b"), "a stopping node clears its mark")
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
        // A silent node stops counting once its mark is older than 5 s: a node whose syncs
        // are a second late (a busy machine, a slow server) is still counted.
        _ = try b.exchange([], nowMicros: 0)
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 2)
        try database.connect().execute("UPDATE nodes SET rate_synced_at = rate_synced_at - 1500 WHERE name = 'b'")
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 2)
        try database.connect().execute("UPDATE nodes SET rate_synced_at = rate_synced_at - 4000 WHERE name = 'b'")
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
    }

    func testOnlyAFreshRateLimitMarkMakesANodeLiveNotItsHeartbeat() throws {
        let a = try node("a")
        // A node that heartbeats but does not sync its rate limits takes no share of the
        // buckets (an older binary whose sync fails decides alone): not counted.
        _ = try node("beating")
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
        // The mark counts, whatever the heartbeat's age, but not on a row that says the
        // node stopped (its `leave` failed, its last heartbeat got through).
        for (name, listening) in [("stopped", ""), ("starting", "starting")] {
            try database.connect().execute(
                """
                INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening, rate_synced_at)
                VALUES ('\(name)', 'test', 7, 0, 0, '\(listening)', (extract(epoch FROM clock_timestamp()) * 1000)::int8)
                """)
        }
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 2, "a and the starting node")
        // A process without a row in `nodes` counts itself only; nobody counts it.
        let rowless = PGFleetCounters(settings: settings, keySeed: Array(repeating: 1, count: 16), name: "rowless")
        XCTAssertEqual(try rowless.exchange([], nowMicros: 0).nodes, 3)
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 2)
    }

    func testTheMarkIsWrittenOnlyOnceItIsAQuarterOfASecondOld() throws {
        let a = try node("a")
        let db = try database.connect()
        // A mark in the future is always fresh: left alone.
        try db.execute(
            "UPDATE nodes SET rate_synced_at = (extract(epoch FROM clock_timestamp()) * 1000)::int8 + 60000 "
                + "WHERE name = 'a'")
        _ = try a.exchange([], nowMicros: 0)
        XCTAssertEqual(try markAge("a").map { $0 <= -59_000 }, true, "a fresh mark is not written again")
        try db.execute(
            "UPDATE nodes SET rate_synced_at = (extract(epoch FROM clock_timestamp()) * 1000)::int8 - "
                + "\(PGFleetCounters.markMilliseconds + 50) WHERE name = 'a'")
        _ = try a.exchange([], nowMicros: 0)
        XCTAssertLessThan(try XCTUnwrap(try markAge("a")), PGFleetCounters.markMilliseconds)
    }

    func testRowsIdleForTwoMinutesAreDeleted() throws {
        let db = try database.connect()
        let a = try node("a")
        _ = try a.exchange([FleetCount(bucket: 1, key: 7, added: 1, ownTAT: 0)], nowMicros: 0)
        try db.execute("INSERT INTO rate_counts VALUES (1, 8, 'gone', 4, 0, 0)")
        try db.execute(
            "INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, rate_synced_at) "
                + "VALUES ('gone', 'test', 7, 0, 0, 0)")
        // The next exchange of a new connection prunes first thing.
        let b = try node("b")
        let r = try b.exchange([FleetCount(bucket: 1, key: 8, added: 0, ownTAT: 0)], nowMicros: 0)
        XCTAssertEqual(r.others, [FleetOthers(count: 4, backlogMicros: 0)], "read before the clean-up")
        XCTAssertEqual(try db.run("t_left", "SELECT count(*) FROM rate_counts WHERE node = 'gone'").int(0, 0), 0)
        XCTAssertEqual(
            try db.run("t_nodes", "SELECT count(*) FROM nodes WHERE name = 'gone'").int(0, 0), 1,
            "the heartbeats' rows stay, for `biqli-edge nodes --all`")
        XCTAssertEqual(try db.run("t_kept", "SELECT count(*) FROM rate_counts WHERE key = 7").int(0, 0), 1)
    }

    func testTheKeySeedIsTheFleetsAndAFailedExchangeReconnects() throws {
        let one = try PGStore.open(settings: settings, readers: 1)
        let two = try PGStore.open(settings: settings, readers: 1)
        defer {
            one.close()
            two.close()
        }
        let a = try one.fleetCounters(node: "one")
        let b = try two.fleetCounters(node: "two")
        XCTAssertEqual(a.keySeed.count, 16)
        XCTAssertEqual(a.keySeed, b.keySeed)
        XCTAssertNotEqual(a.node, b.node)
        _ = try a.exchange([], nowMicros: 0)
        try database.connect().execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'biqli-edge' "
                + "AND datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%rate_counts%'")
        // The broken connection fails at most one exchange; the next one connects again.
        if (try? a.exchange([], nowMicros: 0)) == nil { _ = try a.exchange([], nowMicros: 0) }
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
    }
}

/// Step 7 on a database where nodes ran: `rate_nodes` goes, `nodes` keeps its rows (no
/// mark until each node's next sync) and gains the mark, the counts stay.
final class PGFleetNodesMigrationTests: XCTestCase {
    func testStepSevenMovesTheLiveNodesIntoNodesAndKeepsTheCounts() throws {
        let database = try PGTestDatabase(
            now: PGTestCase.now, migrations: PGMigrations.all.filter { $0.version <= 6 })
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute(
            """
            INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening)
            VALUES ('edge-1', '1.0', 6, 1, (extract(epoch FROM clock_timestamp()) * 1000)::int8, 'http=a'),
                   ('edge-2', '1.0', 6, 1, 2, '');
            INSERT INTO rate_nodes VALUES ('n1f', (extract(epoch FROM clock_timestamp()) * 1000)::int8);
            INSERT INTO rate_counts VALUES (1, 8, 'n1f', 4, 0, (extract(epoch FROM clock_timestamp()) * 1000)::int8);
            """)
        try PGMigrations.apply(on: connection)
        XCTAssertEqual(try PGMigrations.version(connection), PGMigrations.latestVersion)
        XCTAssertEqual(try PGMigrations.compatibleFrom(connection), 1, "kept additive (see PGSchemaV7)")
        XCTAssertFalse(try connection.run("t_gone", "SELECT to_regclass('rate_nodes') IS NOT NULL").bool(0, 0))
        let rows = try connection.run(
            "t_nodes", "SELECT name, listening, rate_synced_at IS NULL FROM nodes ORDER BY name")
        XCTAssertEqual(
            (0..<rows.rowCount).map { "\(rows.text($0, 0)) \(rows.text($0, 1)) \(rows.bool($0, 2))" },
            ["edge-1 http=a true", "edge-2  true"])
        XCTAssertEqual(try connection.run("t_counts", "SELECT count(*) FROM rate_counts").int(0, 0), 1)
        // The first sync of a node marks its row; the others count it from then on.
        let settings = try PGConnectionSettings(database.url)
        let one = PGFleetCounters(settings: settings, keySeed: Array(repeating: 1, count: 16), name: "edge-1")
        let r = try one.exchange([FleetCount(bucket: 1, key: 8, added: 0, ownTAT: 0)], nowMicros: 0)
        XCTAssertEqual(r, FleetExchange(nodes: 1, others: [FleetOthers(count: 4, backlogMicros: 0)]))
        let other = PGFleetCounters(settings: settings, keySeed: Array(repeating: 1, count: 16), name: "edge-3")
        XCTAssertEqual(try other.exchange([], nowMicros: 0).nodes, 2)
    }
}
