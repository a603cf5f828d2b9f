import Core
import Store
import XCTest

@testable import Edge
@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// Clicks written after their answer, when another process holds the database's write
/// lock: retried while the lock lasts (up to `ClickRecorder.lockedAttempts` tries), given
/// up after that, and never written twice.
final class ClickRecorderTests: XCTestCase {
    var directory = ""
    var store: SQLiteStore!
    var holder: SQLiteConnection!

    override func setUpWithError() throws {
        var template = Array("/tmp/click-recorder-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var options = SQLiteStore.Options()
        options.busyTimeoutMilliseconds = 20
        store = try SQLiteStore.open(path: directory + "/edge.sqlite3", readers: 1, options: options)
        // A second connection, as an operator's sqlite3 session: it takes the write lock.
        holder = try SQLiteConnection.open(
            path: directory + "/edge.sqlite3", create: false, busyTimeoutMilliseconds: 1_000, cacheKiB: 64,
            queryOnly: false)
    }

    override func tearDown() {
        holder?.close()
        store?.close()
        for suffix in ["", "-wal", "-shm"] { unlink(directory + "/edge.sqlite3" + suffix) }
        rmdir(directory)
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
        XCTAssertLessThan(failed, ClickRecorder.lockedAttempts)
        usleep(100_000)
        XCTAssertEqual(try copies(of: "biq_clk_retried"), 1)
        XCTAssertEqual(store.statistics.failedJobs, failed, "nothing tried after the success")
        XCTAssertEqual(recorder.retainedCount, 0)
    }

    func testPastTheRetainedLimitAFailedWriteIsGivenUpAtOnce() throws {
        let recorder = ClickRecorder(store: store, loops: 1, log: Log(level: .error), retainedLimit: 1)
        try holder.exec("BEGIN IMMEDIATE")
        recorder.record(click("biq_clk_held"), loop: 0)
        recorder.flush(loop: 0)
        try eventually("the first click is held") { recorder.retainedCount == 1 }
        recorder.record(click("biq_clk_over"), loop: 0)
        recorder.flush(loop: 0)
        // The second write fails once and is not held: the first stays the only one.
        let failed = store.statistics.failedJobs
        try eventually("the second write failed") { store.statistics.failedJobs >= failed + 2 }
        XCTAssertLessThanOrEqual(recorder.retainedCount, 1)
        try holder.exec("ROLLBACK")
        try eventually("the held click was written") { try copies(of: "biq_clk_held") == 1 }
        XCTAssertEqual(try copies(of: "biq_clk_over"), 0)
        XCTAssertEqual(recorder.retainedCount, 0)
    }

    func testAClickIsGivenUpAfterItsLastTry() throws {
        let recorder = ClickRecorder(store: store, loops: 1, log: Log(level: .error))
        try holder.exec("BEGIN IMMEDIATE")
        recorder.record(click("biq_clk_lost"), loop: 0)
        recorder.flush(loop: 0)
        try eventually("every try failed") { store.statistics.failedJobs == ClickRecorder.lockedAttempts }
        try holder.exec("ROLLBACK")
        usleep(200_000)
        XCTAssertEqual(store.statistics.failedJobs, ClickRecorder.lockedAttempts, "no try after the last")
        XCTAssertEqual(try copies(of: "biq_clk_lost"), 0)
        XCTAssertEqual(recorder.retainedCount, 0)
    }

    func testOnlyALockTimeoutCountsAsOne() {
        XCTAssertTrue(StoreError.backend(code: 5, message: "database is locked").isLockTimeout)
        XCTAssertTrue(StoreError.backend(code: 5 | (2 << 8), message: "busy snapshot").isLockTimeout)
        XCTAssertTrue(StoreError.backend(code: 6, message: "table is locked").isLockTimeout)
        XCTAssertFalse(StoreError.backend(code: 13, message: "database or disk is full").isLockTimeout)
        XCTAssertFalse(StoreError.backend(code: 10, message: "disk I/O error").isLockTimeout)
        XCTAssertFalse(StoreError.conflict("click").isLockTimeout)
        XCTAssertFalse(StoreError.closed.isLockTimeout)
    }
}
