import Dispatch
import XCTest

@testable import Console
@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// A count the store cannot answer (decision 0029): the overview's recount fails on the
/// background thread, is logged and counted for `/metrics`, and the page keeps the last
/// count; a page whose own read fails answers 500 and the console goes on.
final class BackgroundFailureTests: XCTestCase {
    var h: ConsoleHarness!

    override func setUpWithError() throws { h = try ConsoleHarness() }
    override func tearDown() { h?.close() }

    func testAFailedCountIsLoggedCountedAndThePageKeepsTheLastOne() throws {
        h.signIn()
        idle()
        XCTAssertEqual(h.counts.value, ["overview counted"])
        XCTAssertTrue(h.text(h.send(.get, "/console/")).contains("<table id=\"overview-table\">"))
        // The daily conversion counts gone from under the readers: every read of them fails.
        try exec("ALTER TABLE link_conversion_counts RENAME TO link_conversion_counts_gone")
        h.advance(seconds: 301)
        let stale = h.send(.get, "/console/")
        XCTAssertEqual(stale.status, 200, "the last count, while the recount runs")
        idle()
        XCTAssertEqual(h.counts.value, ["overview counted", "overview failed"])
        XCTAssertTrue(h.logs.contains("error console overview failed"), "\(h.logs)")
        let after = h.send(.get, "/console/")
        XCTAssertEqual(after.status, 200)
        XCTAssertTrue(h.text(after).contains("<table id=\"overview-table\">"), "the last count still shown")
        // The link page reads the same counts: its request fails alone.
        XCTAssertEqual(h.send(.get, "/console/links/\(ConsoleHarness.linkId)").status, 500)
        XCTAssertEqual(h.send(.get, "/console/links").status, 200)
    }

    /// Waits until the console's background thread has done what was queued.
    private func idle() {
        let done = DispatchSemaphore(value: 0)
        h.console.worker.submit { _ in done.signal() }
        done.wait()
    }

    private func exec(_ sql: String) throws {
        let db = try SQLiteConnection.open(
            path: h.directory + "/" + SQLiteStore.fileName, create: false, busyTimeoutMilliseconds: 1_000,
            cacheKiB: 1_024, queryOnly: false)
        try db.exec(sql)
    }
}
