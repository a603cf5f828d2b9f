import Core
import Model
import XCTest

@testable import Edge
@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// Clicks written after their answer, when another process holds the database's write
/// lock: retried while the lock lasts (for up to `lockRetryMilliseconds`), given up
/// after that, never written twice; past the waiting limit new ones are dropped and counted.
final class ClickRecorderTests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!
    var holder: SQLiteConnection!

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "click-recorder")
        var options = SQLiteStore.Options()
        options.busyTimeoutMilliseconds = 20
        store = try SQLiteStore.open(path: directory.databasePath, readers: 1, options: options)
        // A second connection, as an operator's sqlite3 session: it takes the write lock.
        holder = try SQLiteConnection.open(
            path: directory.databasePath, create: false, busyTimeoutMilliseconds: 1_000, cacheKiB: 64,
            queryOnly: false)
    }

    override func tearDown() {
        holder?.close()
        store?.close()
        directory?.remove()
    }

    private func click(_ id: String) -> Click {
        Click(
            id: id, linkId: "biq_lnk_1", appId: nil, domain: "go.example.com", at: 1_800_000_000_000, kind: .desktop,
            platform: .desktop, inAppBrowser: nil, dynamic: [], sourceHash: nil, osVersion: nil)
    }

    private func copies(of id: String) throws -> Int {
        let count: Int64 = try store.writeAndWait { tx in
            try (tx as! SQLiteTransaction).db.queryFirst(
                "SELECT count(*) FROM clicks WHERE id = ?1", { $0.bind(1, id) }
            ) { $0.int64(0) } ?? 0
        }
        return Int(count)
    }

    /// Waits (up to 10 s) until `condition` holds.
    private func eventually(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Clock.monotonicNanoseconds() + 10_000_000_000
        while try !condition() {
            guard Clock.monotonicNanoseconds() < deadline else { return XCTFail("never: \(what)") }
            usleep(10_000)
        }
    }

    func testAClickWrittenWhileTheLockIsHeldLandsOnceWhenItIsReleased() throws {
        let recorder = ClickRecorder(store: store, loops: 1, log: Log(level: .error))
        try holder.exec("BEGIN IMMEDIATE")
        recorder.record(click("biq_clk_retried"), loop: 0)
        recorder.flush(loop: 0)
        try eventually("two tries failed") { store.statistics.failedJobs >= 2 }
        try holder.exec("ROLLBACK")
        try eventually("the click was written") { try copies(of: "biq_clk_retried") == 1 }
        let failed = store.statistics.failedJobs
        usleep(100_000)
        XCTAssertEqual(try copies(of: "biq_clk_retried"), 1)
        XCTAssertEqual(store.statistics.failedJobs, failed, "nothing tried after the success")
        try eventually("nothing waits") { recorder.waitingCount == 0 }
    }

    func testPastTheWaitingLimitNewClicksAreDroppedAndCounted() throws {
        let log = CapturingLogSink()
        let recorder = ClickRecorder(store: store, loops: 1, log: Log(level: .error, sink: log), waitingLimit: 1)
        try holder.exec("BEGIN IMMEDIATE")
        recorder.record(click("biq_clk_waits"), loop: 0)
        recorder.flush(loop: 0)
        XCTAssertEqual(recorder.waitingCount, 1)
        recorder.record(click("biq_clk_dropped"), loop: 0)
        recorder.flush(loop: 0)
        XCTAssertEqual(recorder.droppedCount, 1, "the limit was reached: dropped, not queued")
        XCTAssertEqual(log.lines.map { $0?["msg"] }, [.string("clicks dropped: the store is not writing")])
        XCTAssertEqual(log.lines.first??["droppedTotal"], .int(1))
        try holder.exec("ROLLBACK")
        try eventually("the waiting click was written") { try copies(of: "biq_clk_waits") == 1 }
        try eventually("nothing waits") { recorder.waitingCount == 0 }
        XCTAssertEqual(try copies(of: "biq_clk_dropped"), 0)
        // Room again: the next click is written.
        recorder.record(click("biq_clk_after"), loop: 0)
        recorder.flush(loop: 0)
        try eventually("the next click was written") { try copies(of: "biq_clk_after") == 1 }
        XCTAssertEqual(recorder.droppedCount, 1)
    }

    func testAClickIsGivenUpWhenTheLockOutlastsItsRetryTime() throws {
        let recorder = ClickRecorder(store: store, loops: 1, log: Log(level: .error), lockRetryMilliseconds: 300)
        try holder.exec("BEGIN IMMEDIATE")
        recorder.record(click("biq_clk_lost"), loop: 0)
        recorder.flush(loop: 0)
        try eventually("the click was given up") { recorder.waitingCount == 0 }
        let failed = store.statistics.failedJobs
        XCTAssertGreaterThanOrEqual(failed, 2, "tried more than once")
        try holder.exec("ROLLBACK")
        usleep(200_000)
        XCTAssertEqual(store.statistics.failedJobs, failed, "no try after the last")
        XCTAssertEqual(try copies(of: "biq_clk_lost"), 0)
    }

    func testOnlyALockTimeoutCountsAsOne() {
        XCTAssertTrue(StoreError.backend(code: 5, message: "database is locked").isLockTimeout)
        XCTAssertTrue(StoreError.backend(code: 5 | (2 << 8), message: "busy snapshot").isLockTimeout)
        XCTAssertTrue(StoreError.backend(code: 6, message: "table is locked").isLockTimeout)
        XCTAssertFalse(StoreError.backend(code: 13, message: "database or disk is full").isLockTimeout)
        XCTAssertFalse(StoreError.backend(code: 10, message: "disk I/O error").isLockTimeout)
        XCTAssertFalse(StoreError.conflict(.unnamed).isLockTimeout)
        XCTAssertFalse(StoreError.closed.isLockTimeout)
    }
}
