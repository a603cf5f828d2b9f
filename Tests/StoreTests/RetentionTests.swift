import Core
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// Old clicks and opens, expired handoffs and old idempotency records go, in small transactions.
final class RetentionTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.pruneBatchSize = 3
        return options
    }

    private func seedAges() throws {
        try write { tx in
            for i in 0..<10 { try tx.insertClick(Fixture.click(id: "old_\(i)", at: 100 + Int64(i))) }
            for i in 0..<2 { try tx.insertClick(Fixture.click(id: "new_\(i)", at: 1_000)) }
            for i in 0..<5 { try tx.insertOpenEvent(Fixture.open(id: "o_old_\(i)", eventId: "eo\(i)", at: 10)) }
            try tx.insertOpenEvent(Fixture.open(id: "o_new", eventId: "en", at: 1_000))
            for i in 0..<4 {
                try tx.insertHandoff(Fixture.handoff(token: UInt8(i), clickId: "old_\(i)", expiresAt: 500))
            }
            try tx.insertHandoff(Fixture.handoff(token: 99, clickId: "new_0", expiresAt: 5_000))
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
        // 10 clicks in batches of 3 = 4 transactions, 5 opens = 2, 4 handoffs = 2, 2 records = 1.
        XCTAssertEqual(store.statistics.batches - before, 9)
        XCTAssertNotNil(try reader.handoff(tokenHash: [UInt8](repeating: 99, count: 32)))
        XCTAssertEqual(try store.prune(olderThan: 500, now: 500), 0)
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
