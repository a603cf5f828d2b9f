import Core
import XCTest

@testable import Store

/// Clicks, handoffs, opens and instances: round trips and the one-time operations.
final class EventTests: StoreTestCase {
    func testClickAndHandoffRoundTrip() throws {
        let click = Fixture.click(id: "biq_clk_1", at: 1_000)
        var bare = Click(
            id: "biq_clk_2", linkId: "l", appId: nil, domain: "d", at: 2, kind: .desktop, platform: .desktop)
        bare.dynamic = []
        let handoff = Fixture.handoff(token: 7, clickId: "biq_clk_1")
        var claimed = Fixture.handoff(token: 8, clickId: "biq_clk_2")
        claimed.claimedByInstance = "install_x"
        claimed.claimedByOpen = "biq_open_x"
        claimed.platform = .ios
        claimed.snapshot.referralCode = nil
        claimed.snapshot.dynamic = []
        claimed.snapshot.metadata = .object([])
        try write { [bare, claimed] tx in
            try tx.insertClick(click)
            try tx.insertClick(bare)
            try tx.insertHandoff(handoff)
            try tx.insertHandoff(claimed)
        }
        XCTAssertEqual(try reader.click(id: "biq_clk_1"), click)
        XCTAssertEqual(try reader.click(id: "biq_clk_2"), bare)
        XCTAssertNil(try reader.click(id: "biq_clk_3"))
        XCTAssertEqual(try reader.handoff(tokenHash: handoff.tokenHash), handoff)
        XCTAssertEqual(try reader.handoff(tokenHash: claimed.tokenHash), claimed)
        XCTAssertNil(try reader.handoff(tokenHash: [1]))
    }

    func testHandoffBindsToTheFirstInstanceOnly() throws {
        let handoff = Fixture.handoff(token: 1, clickId: "biq_clk_1")
        try write { tx in try tx.insertHandoff(handoff) }
        let token = handoff.tokenHash
        XCTAssertTrue(
            try write { tx in try tx.claimHandoff(tokenHash: token, instance: "inst_A", openId: "biq_open_1") })
        XCTAssertFalse(
            try write { tx in try tx.claimHandoff(tokenHash: token, instance: "inst_B", openId: "biq_open_2") })
        // The holder's replay is still accepted, and the first open stays recorded.
        XCTAssertTrue(
            try write { tx in try tx.claimHandoff(tokenHash: token, instance: "inst_A", openId: "biq_open_3") })
        let stored = try reader.handoff(tokenHash: token)
        XCTAssertEqual(stored?.claimedByInstance, "inst_A")
        XCTAssertEqual(stored?.claimedByOpen, "biq_open_1")
        XCTAssertFalse(
            try write { tx in try tx.claimHandoff(tokenHash: [0], instance: "inst_A", openId: "biq_open_4") })
    }

    func testAClickIsConsumedOnce() throws {
        try write { tx in try tx.insertClick(Fixture.click(id: "biq_clk_1", at: 1)) }
        XCTAssertTrue(try write { tx in try tx.consumeClick(id: "biq_clk_1", openId: "biq_open_1") })
        XCTAssertFalse(try write { tx in try tx.consumeClick(id: "biq_clk_1", openId: "biq_open_2") })
        XCTAssertFalse(try write { tx in try tx.consumeClick(id: "biq_clk_none", openId: "biq_open_2") })
    }

    func testProbabilisticCandidatesApplyEveryFilter() throws {
        let hash: [UInt8] = [1, 2, 3]
        try write { tx in
            try tx.insertClick(Fixture.click(id: "c_match_old", at: 1_000))
            try tx.insertClick(Fixture.click(id: "c_match_new", at: 1_500, osVersion: "17.4"))
            try tx.insertClick(Fixture.click(id: "c_other_os", at: 1_600, osVersion: "16.0"))
            try tx.insertClick(Fixture.click(id: "c_no_os", at: 1_700, osVersion: nil))
            try tx.insertClick(Fixture.click(id: "c_too_old", at: 999))
            try tx.insertClick(Fixture.click(id: "c_other_app", at: 1_100, app: "biq_mapp_other"))
            try tx.insertClick(Fixture.click(id: "c_other_domain", at: 1_100, host: "b.example.com"))
            try tx.insertClick(Fixture.click(id: "c_other_hash", at: 1_100, sourceHash: [9]))
            try tx.insertClick(Fixture.click(id: "c_no_hash", at: 1_100, sourceHash: nil))
            try tx.insertClick(Fixture.click(id: "c_android", at: 1_100, platform: .android, kind: .androidRedirect))
            try tx.insertClick(Fixture.click(id: "c_consumed", at: 1_200))
            _ = try tx.consumeClick(id: "c_consumed", openId: "biq_open_1")
        }
        func ids(_ os: String?, limit: Int = 10) throws -> [String] {
            try reader.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: hash, osVersion: os, since: 1_000, limit: limit
            ).map(\.id)
        }
        XCTAssertEqual(try ids(nil), ["c_no_os", "c_other_os", "c_match_new", "c_match_old"])
        XCTAssertEqual(try ids("17.4"), ["c_match_new", "c_match_old"])
        XCTAssertEqual(try ids("17.4", limit: 1), ["c_match_new"])
        XCTAssertEqual(try ids(nil, limit: 0), [])
        let inTransaction = try write { tx in
            try tx.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: hash, osVersion: "16.0", since: 0, limit: 5)
        }
        XCTAssertEqual(inTransaction.map(\.id), ["c_other_os"])
        XCTAssertEqual(inTransaction.first, Fixture.click(id: "c_other_os", at: 1_600, osVersion: "16.0"))
    }

    func testHotQueriesUseTheirIndexes() throws {
        let cases: [(String, String)] = [
            (SQLiteQueries.selectCandidatesWithOS, "clicks_probabilistic"),
            (SQLiteQueries.selectCandidates, "clicks_probabilistic"),
            (SQLiteQueries.countClicks, "clicks_app_at"),
            (SQLiteQueries.countOpens, "open_events_app_at"),
            ("SELECT rowid FROM clicks WHERE app_id = ?1 AND at < ?2 LIMIT ?3", "clicks_app_at"),
            ("SELECT rowid FROM clicks WHERE app_id IS NULL AND at < ?1 LIMIT ?2", "clicks_app_at"),
            ("SELECT min(app_id) FROM clicks WHERE app_id > ?1", "clicks_app_at"),
            ("SELECT token_hash FROM handoffs WHERE expires_at <= ?1 LIMIT ?2", "handoffs_expiry"),
            ("SELECT rowid FROM open_events WHERE at < ?1 LIMIT ?2", "open_events_at"),
        ]
        for (sql, index) in cases {
            let plan = try write { tx in
                try (tx as! SQLiteTransaction).db.queryAll("EXPLAIN QUERY PLAN " + sql) { s in s.text(3) }
            }
            XCTAssertTrue(plan.joined().contains(index), sql + " -> " + plan.joined(separator: "; "))
        }
    }

    func testPruningFindsOldClicksOfEveryAppAndOfNone() throws {
        try write { tx in
            try tx.insertClick(Fixture.click(id: "a_old", at: 1, app: "biq_mapp_a"))
            try tx.insertClick(Fixture.click(id: "a_new", at: 100, app: "biq_mapp_a"))
            try tx.insertClick(Fixture.click(id: "b_old", at: 1, app: "biq_mapp_b"))
            try tx.insertClick(Fixture.click(id: "n_old", at: 1, app: nil))
            try tx.insertClick(Fixture.click(id: "n_new", at: 100, app: nil))
        }
        XCTAssertEqual(try store.prune(olderThan: 50, now: 0), 3)
        XCTAssertEqual(try count("clicks"), 2)
        XCTAssertNotNil(try reader.click(id: "a_new"))
        XCTAssertNotNil(try reader.click(id: "n_new"))
    }

    func testOpenEventsAreFoundByIdEventAndIdempotencyKey() throws {
        let open = Fixture.open(id: "biq_open_1", eventId: "evt_000001", idempotencyKeyHash: [5, 5])
        var bare = Fixture.open(id: "biq_open_2", eventId: "evt_000002", matchedBy: .none, firstOpen: false)
        bare.linkId = nil
        bare.clickId = nil
        bare.storedResponse = []
        try write { [bare] tx in
            try tx.insertOpenEvent(open)
            try tx.insertOpenEvent(bare)
        }
        XCTAssertEqual(try reader.openEvent(id: "biq_open_1"), open)
        XCTAssertEqual(try reader.openEvent(id: "biq_open_2"), bare)
        XCTAssertEqual(try reader.openEvent(app: Fixture.appId, eventId: "evt_000001"), open)
        XCTAssertNil(try reader.openEvent(app: "biq_mapp_other", eventId: "evt_000001"))
        XCTAssertEqual(try reader.openEvent(app: Fixture.appId, idempotencyKeyHash: [5, 5]), open)
        XCTAssertNil(try reader.openEvent(app: Fixture.appId, idempotencyKeyHash: [5]))
    }

    func testAppInstanceKeepsItsFirstOpenAndCreationTime() throws {
        let first = AppInstance(
            appId: Fixture.appId, instanceId: "inst_A", platform: .ios, firstOpenId: nil, createdAt: 1)
        try write { tx in try tx.upsertAppInstance(first) }
        XCTAssertEqual(try reader.appInstance(app: Fixture.appId, instance: "inst_A"), first)
        var matched = first
        matched.firstOpenId = "biq_open_1"
        matched.createdAt = 2
        try write { [matched] tx in try tx.upsertAppInstance(matched) }
        var expected = matched
        expected.createdAt = 1
        XCTAssertEqual(try reader.appInstance(app: Fixture.appId, instance: "inst_A"), expected)
        var later = matched
        later.firstOpenId = "biq_open_2"
        try write { [later] tx in try tx.upsertAppInstance(later) }
        XCTAssertEqual(try reader.appInstance(app: Fixture.appId, instance: "inst_A")?.firstOpenId, "biq_open_1")
        XCTAssertNil(try reader.appInstance(app: Fixture.appId, instance: "inst_B"))
    }

    func testAnalyticsCountsSinceATimeAndListsRecentOpens() throws {
        try write { tx in
            try tx.insertClick(Fixture.click(id: "c1", at: 100))
            try tx.insertClick(Fixture.click(id: "c2", at: 200))
            try tx.insertClick(Fixture.click(id: "c3", at: 200, platform: .android, kind: .androidRedirect))
            try tx.insertClick(Fixture.click(id: "c4", at: 50))
            try tx.insertClick(Fixture.click(id: "c5", at: 300, app: "biq_mapp_other"))
            try tx.insertClick(Fixture.click(id: "c6", at: 300, platform: .ios, kind: .iosFallback))
            try tx.insertOpenEvent(Fixture.open(id: "o1", eventId: "e1", at: 100, matchedBy: .exactHandoff))
            try tx.insertOpenEvent(Fixture.open(id: "o2", eventId: "e2", at: 300, matchedBy: .exactHandoff))
            try tx.insertOpenEvent(Fixture.open(id: "o3", eventId: "e3", at: 200, matchedBy: .none, firstOpen: false))
            try tx.insertOpenEvent(Fixture.open(id: "o4", eventId: "e4", at: 10, matchedBy: .probabilistic))
            try tx.insertOpenEvent(Fixture.open(id: "o5", eventId: "e5", app: "biq_mapp_other", at: 300))
        }
        let a = try reader.analytics(app: Fixture.appId, since: 100, recent: 2)
        XCTAssertEqual(
            a.clicks,
            [
                .init(platform: .android, kind: .androidRedirect, count: 1),
                .init(platform: .ios, kind: .deepView, count: 2),
                .init(platform: .ios, kind: .iosFallback, count: 1),
            ])
        XCTAssertEqual(
            a.opens,
            [
                .init(matchedBy: .exactHandoff, firstOpen: true, count: 2),
                .init(matchedBy: .none, firstOpen: false, count: 1),
            ])
        XCTAssertEqual(a.recent.map(\.id), ["o2", "o3"])
        XCTAssertEqual(
            try reader.analytics(app: "biq_mapp_none", since: 0, recent: 5),
            AppAnalytics(clicks: [], opens: [], recent: []))
    }
}
