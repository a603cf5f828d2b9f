import Core
import Model
import XCTest

@testable import Store

/// The fleet's rate-limit counts in PostgreSQL (schema 3, decision 0016): what one
/// exchange publishes and what it reads back, the live nodes, and the clean-up.
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

    private func node() -> PGFleetCounters {
        PGFleetCounters(settings: settings, keySeed: Array(repeating: 1, count: 16))
    }

    func testSchemaThreeIsAdditive() throws {
        let db = try database.connect()
        XCTAssertGreaterThanOrEqual(try PGMigrations.version(db), 3)
        XCTAssertEqual(try PGMigrations.compatibleFrom(db), 1, "binaries of schema 1 and 2 run beside it")
        XCTAssertFalse(PGMigrations.breaking.contains(3))
        let unlogged = try db.run(
            "t_unlogged",
            "SELECT count(*) FROM pg_class WHERE relname IN ('rate_counts', 'rate_nodes') AND relpersistence = 'u'")
        XCTAssertEqual(unlogged.int(0, 0), 2)
    }

    func testAnExchangePublishesAndReadsOnlyTheOtherNodesCounts() throws {
        let a = node()
        let b = node()
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

    func testAnEmptyExchangeIsAHeartbeatAndLeavingEndsIt() throws {
        let a = node()
        let b = node()
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
        XCTAssertEqual(try b.exchange([], nowMicros: 0).nodes, 2)
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 2)
        b.leave()
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
        // A silent node stops counting once its heartbeat is older than a second.
        _ = try b.exchange([], nowMicros: 0)
        try database.connect().execute("UPDATE rate_nodes SET seen_at = seen_at - 1500 WHERE node <> '\(a.node)'")
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
    }

    func testRowsIdleForTwoMinutesAreDeleted() throws {
        let db = try database.connect()
        let a = node()
        _ = try a.exchange([FleetCount(bucket: 1, key: 7, added: 1, ownTAT: 0)], nowMicros: 0)
        try db.execute(
            "INSERT INTO rate_counts VALUES (1, 8, 'gone', 4, 0, 0); INSERT INTO rate_nodes VALUES ('gone', 0)")
        // The next exchange of a new connection prunes first thing.
        let b = node()
        let r = try b.exchange([FleetCount(bucket: 1, key: 8, added: 0, ownTAT: 0)], nowMicros: 0)
        XCTAssertEqual(r.others, [FleetOthers(count: 4, backlogMicros: 0)], "read before the clean-up")
        XCTAssertEqual(try db.run("t_left", "SELECT count(*) FROM rate_counts WHERE node = 'gone'").int(0, 0), 0)
        XCTAssertEqual(try db.run("t_nodes", "SELECT count(*) FROM rate_nodes WHERE node = 'gone'").int(0, 0), 0)
        XCTAssertEqual(try db.run("t_kept", "SELECT count(*) FROM rate_counts WHERE key = 7").int(0, 0), 1)
    }

    func testTheKeySeedIsTheFleetsAndAFailedExchangeReconnects() throws {
        let one = try PGStore.open(settings: settings, readers: 1)
        let two = try PGStore.open(settings: settings, readers: 1)
        defer {
            one.close()
            two.close()
        }
        let a = try one.fleetCounters()
        let b = try two.fleetCounters()
        XCTAssertEqual(a.keySeed.count, 16)
        XCTAssertEqual(a.keySeed, b.keySeed)
        XCTAssertNotEqual(a.node, b.node)
        _ = try a.exchange([], nowMicros: 0)
        try database.connect().execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'biqli-edge' "
                + "AND datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%rate_nodes%'")
        // The broken connection fails at most one exchange; the next one connects again.
        if (try? a.exchange([], nowMicros: 0)) == nil { _ = try a.exchange([], nowMicros: 0) }
        XCTAssertEqual(try a.exchange([], nowMicros: 0).nodes, 1)
    }
}
