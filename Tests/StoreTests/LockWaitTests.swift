import Core
import Model
import XCTest

@testable import Store

/// Another process holding the database's write lock: the first batch waits the whole
/// lock wait, the next ones only the short one until a batch commits, and then the whole
/// wait applies again. The waits are the behaviour under test: long enough (2 s against
/// 100 ms) that a busy machine cannot blur them.
final class LockWaitTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.busyTimeoutMilliseconds = 2_000
        options.stalledBusyTimeoutMilliseconds = 100
        return options
    }

    /// Milliseconds a failed write took, and its error.
    private func timedFailure() -> (milliseconds: UInt64, error: StoreError?) {
        let start = Clock.monotonicNanoseconds()
        let error = writeError { tx in try tx.insertClick(Self.click(ULID.make())) }
        return ((Clock.monotonicNanoseconds() - start) / 1_000_000, error)
    }

    static func click(_ id: String) -> Click {
        Click(
            id: "biq_clk_" + id, linkId: "biq_lnk_1", appId: nil, domain: "go.example.com", at: 1_700_000_000_000,
            kind: .desktop, platform: .desktop, inAppBrowser: nil, dynamic: [], sourceHash: nil, osVersion: nil)
    }

    func testAfterOneFullWaitTheWriterWaitsBrieflyUntilABatchCommits() throws {
        let holder = try SQLiteConnection.open(
            path: directory.databasePath, create: false, busyTimeoutMilliseconds: 1_000, cacheKiB: 64,
            queryOnly: false)
        defer { holder.close() }
        try holder.exec("BEGIN IMMEDIATE")
        let first = timedFailure()
        XCTAssertEqual(first.error?.isLockTimeout, true, "\(String(describing: first.error))")
        XCTAssertGreaterThanOrEqual(first.milliseconds, 2_000)
        let second = timedFailure()
        XCTAssertEqual(second.error?.isLockTimeout, true)
        XCTAssertLessThan(second.milliseconds, 1_500, "the short wait while the lock lasts")
        try holder.exec("ROLLBACK")
        try write { tx in try tx.insertClick(Self.click("after")) }
        // A batch committed: the next lock is waited for in full again.
        try holder.exec("BEGIN IMMEDIATE")
        let third = timedFailure()
        try holder.exec("ROLLBACK")
        XCTAssertEqual(third.error?.isLockTimeout, true)
        XCTAssertGreaterThanOrEqual(third.milliseconds, 2_000)
    }
}
