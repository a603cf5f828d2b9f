import Core
import Model
import XCTest

@testable import Store

/// Clicks, handoffs, opens and instances: round trips and the one-time operations.
final class EventTests: StoreTestCase {
    func testEachRowKeepsItsOwnDynamicValuesAndASnapshotTheLinksEncodedMetadata() throws {
        // The writer reuses the last dynamic values' JSON when the next row has the same
        // values: rows that differ, in order, must each get their own.
        var payload = MobilePayload(appId: Fixture.appId, route: "/r", metadata: ["old": "value"])
        payload.metadata = ["campaign": .string("edited \"quoted\""), "n": .int(3)]
        XCTAssertEqual(payload.metadataJSON, Array(#"{"campaign":"edited \"quoted\"","n":3}"#.utf8))
        var first = Fixture.click(id: "biq_clk_a", at: 1)
        first.dynamic = [("ref", "A")]
        var second = Fixture.click(id: "biq_clk_b", at: 2)
        second.dynamic = [("ref", "B")]
        var handoffA = Fixture.handoff(token: 1, clickId: "biq_clk_a")
        handoffA.snapshot = HandoffSnapshot(
            linkId: Fixture.linkId, shortUrl: "https://go.example.com/a", route: payload.route, referralCode: nil,
            mobile: payload, dynamic: [("ref", "A")])
        var handoffB = Fixture.handoff(token: 2, clickId: "biq_clk_b")
        handoffB.snapshot.dynamic = [("ref", "A"), ("utm_source", "mail")]
        try write { [first, second, handoffA, handoffB] tx in
            try tx.insertClick(first)
            try tx.insertHandoff(handoffA)
            try tx.insertClick(second)
            try tx.insertHandoff(handoffB)
        }
        XCTAssertEqual(try reader.click(id: "biq_clk_a"), first)
        XCTAssertEqual(try reader.click(id: "biq_clk_b"), second)
        XCTAssertEqual(try reader.handoff(tokenHash: handoffA.tokenHash), handoffA)
        XCTAssertEqual(try reader.handoff(tokenHash: handoffA.tokenHash)?.snapshot.metadata, payload.metadata)
        XCTAssertEqual(try reader.handoff(tokenHash: handoffB.tokenHash), handoffB)
    }

    func testEmptyAndLargeValuesSurviveTheWritersBindArena() throws {
        let big = String(repeating: "é", count: 20_000)  // 40,000 bytes: larger than an arena chunk
        let empty = Click(
            id: "biq_clk_empty", linkId: "", appId: "", domain: "", at: 0, kind: .desktop, platform: .desktop,
            inAppBrowser: "", dynamic: [("", "")], sourceHash: [], osVersion: "")
        let large = Fixture.click(id: "biq_clk_large", at: 1)
        var largeDynamic = large
        largeDynamic.dynamic = [("ref", big)]
        var handoff = Fixture.handoff(token: 5, clickId: "biq_clk_large")
        handoff.snapshot.metadata = ["note": .string(big)]
        // Values that fit a chunk each but not together: the statement spans two chunks.
        var spanning = Fixture.click(id: "biq_clk_spanning", at: 2)
        spanning.linkId = String(repeating: "l", count: 9_000)
        spanning.domain = String(repeating: "d", count: 9_000)
        // Many statements in one batch: each one reuses the arena.
        let many = (0..<200).map { i in Fixture.click(id: "biq_clk_m\(i)", at: Int64(i)) }
        try write { [empty, largeDynamic, handoff, spanning] tx in
            try tx.insertClick(spanning)
            try tx.insertClick(empty)
            try tx.insertClick(largeDynamic)
            try tx.insertHandoff(handoff)
            for click in many { try tx.insertClick(click) }
        }
        XCTAssertEqual(try reader.click(id: "biq_clk_empty"), empty)
        XCTAssertEqual(try reader.click(id: "biq_clk_large"), largeDynamic)
        XCTAssertEqual(try reader.click(id: "biq_clk_spanning"), spanning)
        XCTAssertEqual(try reader.handoff(tokenHash: handoff.tokenHash), handoff)
        for click in many { XCTAssertEqual(try reader.click(id: click.id), click) }
    }

    /// Ten minutes before the test clock (`StoreTestCase.makeOptions`): within the
    /// candidate index's horizon.
    static let t0: Int64 = 1_700_000_000_000 - 600_000

    func testACandidateIsSeenByTheJobsAfterItInTheSameBatchAndNotAfterARollback() throws {
        let hash: [UInt8] = [1, 2, 3]
        let t0 = Self.t0
        @Sendable func candidates(_ tx: any StoreTransaction) throws -> [String] {
            try tx.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: hash, osVersion: nil, since: t0, limit: 5
            ).map(\.id)
        }
        // Same transaction: written, then found.
        XCTAssertEqual(
            try write { tx in
                try tx.insertClick(Fixture.click(id: "c_kept", at: t0 + 10))
                return try candidates(tx)
            }, ["c_kept"])
        // A job that fails after writing a click leaves no candidate behind.
        XCTAssertNotNil(
            writeError { tx in
                try tx.insertClick(Fixture.click(id: "c_rolled_back", at: t0 + 20))
                throw StoreError.conflict(.unnamed)
            })
        XCTAssertEqual(try write { tx in try candidates(tx) }, ["c_kept"])
        // Consumed: gone for the next question.
        XCTAssertTrue(try write { tx in try tx.consumeClick(id: "c_kept", openId: "biq_open_1") })
        XCTAssertEqual(try write { tx in try candidates(tx) }, [])
    }

    func testCandidatesOfTheLastHourSurviveAReopenAndOlderOnesAreNotLoaded() throws {
        let hash: [UInt8] = [1, 2, 3]
        let now: Int64 = 1_700_000_000_000
        try write { tx in
            // Time-ordered ids as the visit path makes them: the reload reads an id range.
            try tx.insertClick(
                Fixture.click(
                    id: Identifier.clickPrefix + ULID.make(milliseconds: UInt64(now - 30 * 60_000)),
                    at: now - 30 * 60_000))
            try tx.insertClick(
                Fixture.click(
                    id: Identifier.clickPrefix + ULID.make(milliseconds: UInt64(now - 62 * 60_000)),
                    at: now - 62 * 60_000))
        }
        store.close()
        store = try SQLiteStore.open(dataDirectory: directory.path, readers: 1, options: makeOptions())
        let found = try write { tx in
            try tx.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: hash, osVersion: nil, since: 0, limit: 5)
        }
        XCTAssertEqual(found.map(\.at), [now - 30 * 60_000])
    }

    func testHotQueriesUseTheirIndexes() throws {
        let cases: [(String, String)] = [
            (SQLiteTransaction.selectCandidate, "INTEGER PRIMARY KEY (rowid=?)"),
            (SQLiteTransaction.consumeClickSQL, "INTEGER PRIMARY KEY (rowid=?)"),
            (SQLiteQueries.countClicks, "PRIMARY KEY (app_id=? AND hour>?)"),
            (SQLiteQueries.countOpens, "open_events_app_at"),
            (SQLiteTransaction.selectNextCountedApp, "PRIMARY KEY (app_id>?)"),
            (SQLiteTransaction.selectOldCounts, "PRIMARY KEY (app_id=? AND hour<?)"),
            (SQLiteTransaction.selectExpiredOldHandoffs, "PRIMARY KEY (token_hash<?)"),
            (SQLiteTransaction.selectExpiredRandomHandoffs, "PRIMARY KEY (token_hash>?)"),
            (SQLiteTransaction.selectNextOpenApp, "open_events_app_at (app_id>?)"),
            (SQLiteTransaction.selectOldOpens, "open_events_app_at (app_id=? AND at<?)"),
            (SQLiteQueries.selectOpenByEvent, "(app_id=? AND event_id=?)"),
            (SQLiteQueries.selectOpenByOwnKey, "(app_id=? AND event_id=?)"),
            (SQLiteQueries.selectOpenByIdempotency, "open_events_idempotency (app_id=? AND idempotency_key_hash=?)"),
            (SQLiteQueries.selectOpen, "(id=?)"),
            (SQLiteTransaction.claimHandoffSQL, "PRIMARY KEY (token_hash=?)"),
            (SQLiteTransaction.selectHandoffForClaim, "PRIMARY KEY (token_hash=?)"),
        ]
        for (sql, index) in cases {
            let plan = try write { tx in
                try (tx as! SQLiteTransaction).db.queryAll("EXPLAIN QUERY PLAN " + sql) { s in s.text(3) }
            }
            XCTAssertTrue(plan.joined().contains(index), sql + " -> " + plan.joined(separator: "; "))
            XCTAssertFalse(plan.joined().contains("SCAN"), sql + " -> " + plan.joined(separator: "; "))
        }
        // The start-up load walks the clicks from the newest and stops early (decision
        // 0010): a scan in rowid order, with no sort step.
        let plan = try write { tx in
            try (tx as! SQLiteTransaction).db.queryAll("EXPLAIN QUERY PLAN " + SQLiteTransaction.selectRecentClicks) {
                s in s.text(3)
            }
        }
        XCTAssertEqual(plan, ["SCAN clicks"])
    }

    func testCandidatesStartUpAndPruningWalkOnlyTheRowsTheyNeed() throws {
        // 3,000 old clicks, then 10 recent iOS ones: the start-up load must not read the
        // old ones (it stops at the first click past the horizon), the prune must delete
        // exactly the old ones however many steps it takes.
        let now: Int64 = 1_700_000_000_000  // the store's clock in these tests
        let old = now - 3 * 3_600_000
        try write { tx in
            for i in 0..<3_000 { try tx.insertClick(Fixture.click(id: "biq_clk_old\(i)", at: old + Int64(i))) }
            for i in 0..<10 { try tx.insertClick(Fixture.click(id: "biq_clk_new\(i)", at: now - 1_000 + Int64(i))) }
        }
        store.close()
        store = try SQLiteStore.open(dataDirectory: directory.path, readers: 1, options: makeOptions())
        let found = try write { tx in
            try tx.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: [1, 2, 3], osVersion: nil, since: now - 60_000,
                limit: 20)
        }
        XCTAssertEqual(found.map(\.id), (0..<10).reversed().map { "biq_clk_new\($0)" })
        var deleted = 0
        while true {
            let n = try write { tx in try (tx as! SQLiteTransaction).deleteClicks(before: now - 3_600_000, limit: 700) }
            if n == 0 { break }
            deleted += n
        }
        XCTAssertEqual(deleted, 3_000)
        XCTAssertEqual(try count("clicks"), 10)
        XCTAssertNotNil(try reader.click(id: "biq_clk_new0"))
    }

    func testPruningFindsOldClicksOfEveryAppAndOfNone() throws {
        @Sendable func id(_ ms: UInt64, _ n: UInt64) -> String {
            "biq_clk_" + ULID.make(milliseconds: ms, random: (n, n))
        }
        try write { tx in
            try tx.insertClick(Fixture.click(id: id(1, 1), at: 1, app: "biq_mapp_a"))
            try tx.insertClick(Fixture.click(id: id(100, 2), at: 100, app: "biq_mapp_a"))
            try tx.insertClick(Fixture.click(id: id(1, 3), at: 1, app: "biq_mapp_b"))
            try tx.insertClick(Fixture.click(id: id(1, 4), at: 1, app: nil))
            try tx.insertClick(Fixture.click(id: id(100, 5), at: 100, app: nil))
        }
        XCTAssertEqual(try store.prune(olderThan: 50, now: 0), 3)
        XCTAssertEqual(try count("clicks"), 2)
        XCTAssertNotNil(try reader.click(id: id(100, 2)))
        XCTAssertNotNil(try reader.click(id: id(100, 5)))
    }

    func testClickCountsAddUpAcrossBatchesAndATransactionReadsItsOwn() throws {
        try write { tx in
            try tx.insertClick(Fixture.click(id: "c1", at: 1))
            try tx.insertClick(Fixture.click(id: "c2", at: 2))
        }
        let inside = try write { tx -> [AppAnalytics.ClickCount] in
            try tx.insertClick(Fixture.click(id: "c3", at: 3))
            let seen = try tx.analytics(app: Fixture.appId, since: 0, recent: 0).clicks
            try tx.insertClick(Fixture.click(id: "c4", at: 4))
            return seen
        }
        XCTAssertEqual(inside, [.init(platform: .ios, kind: .deepView, count: 3)])
        XCTAssertEqual(
            try reader.analytics(app: Fixture.appId, since: 0, recent: 0).clicks,
            [.init(platform: .ios, kind: .deepView, count: 4)])
        XCTAssertEqual(try count("click_counts"), 1, "one row per app, hour, platform and kind")
    }
}
