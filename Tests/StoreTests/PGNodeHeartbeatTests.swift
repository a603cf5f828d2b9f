import Core
import Model
import Synchronization
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// A node's row in `nodes`: claimed once per live name, kept fresh, marked stopped,
/// listed by `PGNodeListing`.
final class PGNodeHeartbeatTests: XCTestCase {
    var database: PGTestDatabase!
    var settings: PGConnectionSettings!
    var started: [PGNodeHeartbeat] = []

    override func setUpWithError() throws {
        database = try PGTestDatabase(now: Int64(Clock.nowMilliseconds()))
        settings = try PGConnectionSettings(database.url)
    }

    override func tearDown() {
        for heartbeat in started { heartbeat.stop() }
        started = []
        database?.drop()
    }

    private func start(_ name: String, version: String = "1.0.0", interval: Int = 5_000) throws -> PGNodeHeartbeat {
        let heartbeat = try PGNodeHeartbeat.start(
            settings: settings, identity: .init(name: name, version: version, schemaVersion: 2),
            intervalMilliseconds: interval)
        started.append(heartbeat)
        return heartbeat
    }

    private func row(_ name: String) throws -> PGNode? {
        try PGNodeListing.read(settings: settings, seenWithinMilliseconds: nil).nodes.first { $0.name == name }
    }

    func testAClaimWritesTheRowAndTheListenersFollow() throws {
        let a = try start("edge-a")
        var node = try XCTUnwrap(row("edge-a"))
        XCTAssertEqual(node.version, "1.0.0")
        XCTAssertEqual(node.schemaVersion, 2)
        XCTAssertEqual(node.listening, PGNodeHeartbeat.starting)
        XCTAssertEqual(node.startedAt, a.startedAt)
        a.update(listening: "http=127.0.0.1:8080")
        let deadline = Clock.monotonicNanoseconds() + 5_000_000_000
        while node.listening != "http=127.0.0.1:8080" {
            XCTAssertLessThan(Clock.monotonicNanoseconds(), deadline, "the listeners were never written")
            usleep(20_000)
            node = try XCTUnwrap(row("edge-a"))
        }
        let listing = try PGNodeListing.read(settings: settings, seenWithinMilliseconds: 60_000)
        XCTAssertEqual(listing.nodes.map(\.name), ["edge-a"])
        XCTAssertEqual(node.state(now: listing.now), .live)
        XCTAssertEqual(listing.schema?.version, PGMigrations.latestVersion)
    }

    func testHeartbeatsComeEveryInterval() throws {
        let a = try start("edge-a", interval: 50)
        let first = try XCTUnwrap(row("edge-a")).heartbeatAt
        usleep(400_000)
        XCTAssertGreaterThanOrEqual(a.beats.load(ordering: .relaxed), 3)
        XCTAssertGreaterThan(try XCTUnwrap(row("edge-a")).heartbeatAt, first)
        XCTAssertEqual(a.failures.load(ordering: .relaxed), 0)
    }

    func testASecondLiveProcessWithTheSameNameIsRefused() throws {
        _ = try start("edge-a")
        XCTAssertThrowsError(try start("edge-a", version: "2.0.0")) { error in
            guard case .nameTaken(let name, let ago, _) = error as? PGNodeHeartbeat.ClaimError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(name, "edge-a")
            XCTAssertLessThan(ago, PGNodeHeartbeat.liveWithinMilliseconds)
            XCTAssertTrue("\(error)".contains("BIQLI_EDGE_NODE"))
        }
        XCTAssertEqual(try row("edge-a")?.version, "1.0.0", "the refused claim changed nothing")
        XCTAssertNoThrow(try start("edge-b"), "another name is free")
    }

    func testAStoppedNodeSaysSoAndItsNameIsFreeAtOnce() throws {
        let a = try start("edge-a")
        a.update(listening: "http=127.0.0.1:8080")
        a.stop()
        let listing = try PGNodeListing.read(settings: settings, seenWithinMilliseconds: 60_000)
        XCTAssertEqual(listing.nodes.first?.state(now: listing.now), .stopped)
        XCTAssertEqual(listing.nodes.first?.listening, "")
        let again = try start("edge-a", version: "1.1.0")
        XCTAssertGreaterThanOrEqual(again.startedAt, a.startedAt)
        XCTAssertEqual(try row("edge-a")?.version, "1.1.0")
    }

    func testANameWhoseHolderWentAwayIsFreeWithoutAWait() throws {
        // A killed process: its connection closes without a last heartbeat and the row
        // still looks live, but the server released the name's lock with the connection.
        var holder: PGConnection? = try database.connect()
        let claim = try PGNodeHeartbeat.claim(
            on: holder!, identity: .init(name: "edge-a", version: "1.0.0", schemaVersion: 2), listening: "x")
        XCTAssertTrue(claim.holdsName)
        XCTAssertThrowsError(try start("edge-a"))
        holder = nil
        let deadline = Clock.monotonicNanoseconds() + 3_000_000_000
        while (try? start("edge-a")) == nil {
            XCTAssertLessThan(Clock.monotonicNanoseconds(), deadline, "the name stayed taken")
            usleep(20_000)
        }
        XCTAssertEqual(try row("edge-a")?.listening, PGNodeHeartbeat.starting)
    }

    func testALockHeldWithoutRecentHeartbeatsIsTakenOver() throws {
        // A process cut off from the database (or a server that has not noticed a dead
        // client): the lock is held but the heartbeat is older than 15 s.
        let holder = try database.connect()
        XCTAssertTrue(try PGNodeHeartbeat.lockName(on: holder, "edge-a"))
        try holder.execute(
            "INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening) "
                + "VALUES ('edge-a', '0.9.0', 2, 0, 0, 'http=10.0.0.1:80')")
        let a = try start("edge-a")
        XCTAssertEqual(try row("edge-a")?.version, "1.0.0")
        XCTAssertGreaterThan(a.startedAt, 0)
        withExtendedLifetime(holder) {}
    }

    func testTheListingFiltersByHeartbeatAndReadsAnEmptyDatabase() throws {
        _ = try start("edge-b")
        let db = try database.connect()
        try db.execute(
            "INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening) "
                + "VALUES ('edge-old', '0.9.0', 2, 0, 1000, 'http=10.0.0.1:80')")
        let recent = try PGNodeListing.read(settings: settings, seenWithinMilliseconds: 60_000)
        XCTAssertEqual(recent.nodes.map(\.name), ["edge-b"])
        let all = try PGNodeListing.read(settings: settings, seenWithinMilliseconds: nil)
        XCTAssertEqual(all.nodes.map(\.name), ["edge-b", "edge-old"])
        XCTAssertEqual(all.nodes.last?.state(now: all.now), .silent)

        try db.execute("DROP TABLE nodes; DROP TABLE biqli_schema")
        let empty = try PGNodeListing.read(settings: settings, seenWithinMilliseconds: nil)
        XCTAssertNil(empty.schema)
        XCTAssertEqual(empty.nodes, [])
    }
}

/// The name's lock key, without a database.
final class PGNodeNameLockTests: XCTestCase {
    func testTheNameLockKeyIsStable() {
        // FNV-1a: every binary of a rolling upgrade must lock the same key for a name.
        XCTAssertEqual(PGNodeHeartbeat.nameHash(""), Int32(bitPattern: 0x811C_9DC5))
        XCTAssertEqual(PGNodeHeartbeat.nameHash("a"), Int32(bitPattern: 0xE40C_292C))
    }
}
