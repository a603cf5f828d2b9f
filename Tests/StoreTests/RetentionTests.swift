import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// Old clicks, counts and opens, expired handoffs and old idempotency records go, in small transactions.
final class RetentionTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.pruneBatchSize = 3
        return options
    }

    /// A click id made at `milliseconds`, as the visit path makes them.
    private static func clickId(_ milliseconds: Int64, _ n: Int = 0) -> String {
        "biq_clk_" + ULID.make(milliseconds: UInt64(milliseconds), random: (UInt64(n), UInt64(n)))
    }

    /// A time-ordered handoff key made at `milliseconds` (`HandoffKey`).
    private static func handoffKey(_ milliseconds: Int64, _ fill: UInt8) -> [UInt8] {
        HandoffKey.timePrefix(milliseconds: milliseconds) + [UInt8](repeating: fill, count: 32)
    }

    private static func handoff(key: [UInt8], clickId: String = "biq_clk_x", expiresAt: Int64) -> Handoff {
        var h = Fixture.handoff(token: 0, clickId: clickId, expiresAt: expiresAt)
        h.tokenHash = key
        return h
    }

    private func seedAges() throws {
        try write { tx in
            for i in 0..<10 {
                try tx.insertClick(Fixture.click(id: RetentionTests.clickId(100 + Int64(i), i), at: 100 + Int64(i)))
            }
            for i in 0..<2 { try tx.insertClick(Fixture.click(id: RetentionTests.clickId(1_000, i), at: 1_000)) }
            for i in 0..<5 { try tx.insertOpenEvent(Fixture.open(id: "o_old_\(i)", eventId: "eo\(i)", at: 10)) }
            try tx.insertOpenEvent(Fixture.open(id: "o_new", eventId: "en", at: 1_000))
            for i in 0..<4 {
                try tx.insertHandoff(
                    RetentionTests.handoff(key: RetentionTests.handoffKey(10, UInt8(i)), expiresAt: 500))
            }
            try tx.insertHandoff(RetentionTests.handoff(key: RetentionTests.handoffKey(400, 99), expiresAt: 5_000))
            for i in 0..<2 {
                try tx.putIdempotencyRecord(
                    IdempotencyRecord(
                        scope: "s", keyHash: [UInt8(i)], requestHash: [], status: 200, body: [], createdAt: 1))
            }
            try tx.putIdempotencyRecord(
                IdempotencyRecord(scope: "s", keyHash: [9], requestHash: [], status: 200, body: [], createdAt: 1_000))
        }
    }

    func testPruneDeletesWhatIsOldOrExpiredInSmallBatches() throws {
        try seedAges()
        let before = store.statistics.batches
        XCTAssertEqual(try store.prune(olderThan: 500, now: 500), 10 + 5 + 4 + 2)
        XCTAssertEqual(try count("clicks"), 2)
        XCTAssertEqual(try count("open_events"), 1)
        XCTAssertEqual(try count("handoffs"), 1)
        XCTAssertEqual(try count("idempotency_records"), 1)
        // 10 clicks in windows of 3 = 4 transactions and an empty fifth (the window is shared
        // with newer clicks: only an empty step ends), counts (none old) 1, the links' daily
        // counts (none old) 1, 5 opens = 2, 4 handoffs = 2, 2 records = 1, console sessions (none) 1,
        // webhook deliveries (none) 1.
        XCTAssertEqual(store.statistics.batches - before, 14)
        XCTAssertNotNil(try reader.handoff(tokenHash: RetentionTests.handoffKey(400, 99)))
        XCTAssertEqual(try store.prune(olderThan: 500, now: 500), 0)
    }

    func testClicksGoByTheirTimeAndOneOutOfOrderHoldsNoneBack() throws {
        // Written in this order; the first is dated later than those after it (a clock
        // that jumped): the prune skips it and takes the old ones behind it.
        try write { tx in
            try tx.insertClick(Fixture.click(id: "biq_clk_late", at: 1_000))
            try tx.insertClick(Fixture.click(id: "biq_clk_old1", at: 100))
            try tx.insertClick(Fixture.click(id: "biq_clk_old2", at: 499))
            try tx.insertClick(Fixture.click(id: "biq_clk_cutoff", at: 500))
            try tx.insertClick(Fixture.click(id: "biq_clk_old3", at: 20))
        }
        XCTAssertEqual(try store.prune(olderThan: 500, now: 0), 3)
        XCTAssertNil(try reader.click(id: "biq_clk_old1"))
        XCTAssertNil(try reader.click(id: "biq_clk_old2"))
        XCTAssertNil(try reader.click(id: "biq_clk_old3"))
        XCTAssertNotNil(try reader.click(id: "biq_clk_late"))
        XCTAssertNotNil(try reader.click(id: "biq_clk_cutoff"), "made at the cutoff: kept")
    }

    func testClickCountsGoByWholeHours() throws {
        let hour: Int64 = 3_600_000
        try write { tx in
            for h in 0..<4 {
                try tx.insertClick(
                    Fixture.click(id: RetentionTests.clickId(Int64(h) * hour + 10), at: Int64(h) * hour + 10))
            }
            try tx.insertClick(
                Fixture.click(
                    id: RetentionTests.clickId(10, 1), at: 10, platform: .android, kind: .androidRedirect,
                    app: "biq_mapp_B"))
        }
        // Clicks made before the cutoff: hours 0 and 1 and app B's; counts of hours 0 and 1 (both apps).
        XCTAssertEqual(try store.prune(olderThan: 2 * hour + 5, now: 0), 3 + 3)
        XCTAssertEqual(
            try reader.analytics(app: Fixture.appId, since: 0, recent: 0).clicks,
            [.init(platform: .ios, kind: .deepView, count: 2)], "hours 2 and 3 stay: the cutoff falls in hour 2")
        XCTAssertEqual(try reader.analytics(app: "biq_mapp_B", since: 0, recent: 0).clicks, [])
    }

    func testExpiredHandoffsGoByTheTimeInTheirKeysNeverBeforeTheirExpiry() throws {
        try seedCatalog()  // the app's handoff lifetime: 3,600 s
        let hour: Int64 = 3_600_000
        let now = 10 * hour
        let older = RetentionTests.handoffKey(now - 2 * hour, 1)
        let shortLived = RetentionTests.handoffKey(now - hour / 2, 2)
        let lifetimeLowered = RetentionTests.handoffKey(now - 2 * hour, 3)
        let recent = RetentionTests.handoffKey(now - 10, 4)
        let randomExpired = [UInt8](repeating: 0xEE, count: 38)
        let randomLive = [UInt8](repeating: 0xEF, count: 38)
        try write { tx in
            try tx.insertHandoff(RetentionTests.handoff(key: older, expiresAt: now - hour))
            try tx.insertHandoff(RetentionTests.handoff(key: shortLived, expiresAt: now - 1))
            try tx.insertHandoff(RetentionTests.handoff(key: lifetimeLowered, expiresAt: now + hour))
            try tx.insertHandoff(RetentionTests.handoff(key: recent, expiresAt: now + hour))
            try tx.insertHandoff(RetentionTests.handoff(key: randomExpired, expiresAt: now - 5))
            try tx.insertHandoff(RetentionTests.handoff(key: randomLive, expiresAt: now + 2 * hour))
        }
        XCTAssertEqual(try store.prune(olderThan: 0, now: now), 2)
        XCTAssertNil(try reader.handoff(tokenHash: older))
        XCTAssertNil(try reader.handoff(tokenHash: randomExpired))
        for key in [lifetimeLowered, recent, randomLive] { XCTAssertNotNil(try reader.handoff(tokenHash: key)) }
        // Expired but younger than the longest lifetime: it waits until it leaves that window.
        XCTAssertNotNil(try reader.handoff(tokenHash: shortLived))
        XCTAssertEqual(try store.prune(olderThan: 0, now: now + hour / 2 + 1), 1)
        XCTAssertNil(try reader.handoff(tokenHash: shortLived))
        XCTAssertEqual(try store.prune(olderThan: 0, now: now + hour + 1), 2, "the time-ordered rest once expired")
        XCTAssertEqual(try count("handoffs"), 1)
        XCTAssertNotNil(try reader.handoff(tokenHash: randomLive))
    }

    func testTheBackgroundPrunerRemovesOldRowsAndStops() throws {
        try seedAges()
        let passes = Box<Result<Int, StoreError>>()
        let pruner = RetentionPruner(
            store: store, maxAgeMilliseconds: 100, intervalMilliseconds: 10, clock: { 600 },
            onPass: { passes.append($0) })
        pruner.start()
        let deadline = Clock.monotonicNanoseconds() + 5_000_000_000
        while passes.values.count < 2, Clock.monotonicNanoseconds() < deadline { usleep(2_000) }
        pruner.stop()
        let results = passes.values.map { try? $0.get() }
        XCTAssertGreaterThanOrEqual(results.count, 2)
        XCTAssertEqual(results.first, 21)
        XCTAssertEqual(results.dropFirst().first, 0)
        XCTAssertEqual(try count("clicks"), 2)
        let after = passes.values.count
        usleep(50_000)
        XCTAssertEqual(passes.values.count, after, "no pass after stop")
    }
}
