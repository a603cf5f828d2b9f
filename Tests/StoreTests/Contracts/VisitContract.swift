import Core
import Model
import XCTest

@testable import Store

/// What every backend must do with clicks and handoffs (`VisitReading`, `VisitWriting`):
/// the visit path's writes and the resolver's claims on them.
enum VisitContract {
    static let t0 = ContractTime.now - 600_000

    static func click(
        _ id: String, at: Int64 = t0, platform: VisitorPlatform = .ios, app: String? = Fixture.appId,
        host: String = Fixture.host, sourceHash: [UInt8]? = [1, 2, 3], osVersion: String? = "17.4"
    ) -> Click {
        Fixture.click(
            id: id, at: at, platform: platform, kind: platform == .ios ? .deepView : .androidRedirect, app: app,
            host: host, sourceHash: sourceHash, osVersion: osVersion)
    }

    static func handoff(_ token: UInt8, expiresAt: Int64 = ContractTime.now + 3_600_000) -> Handoff {
        var handoff = Fixture.handoff(token: token, clickId: "biq_clk_\(token)", expiresAt: expiresAt)
        handoff.createdAt = t0
        return handoff
    }

    static let suite: [ContractCase] = [
        ("clicks and handoffs round-trip", roundTrip),
        ("a handoff binds to its first instance only", firstInstanceOnly),
        ("the resolver's claim binds only a valid unclaimed handoff", resolversClaim),
        ("a click is consumed once", consumedOnce),
        ("probabilistic candidates apply every filter", candidates),
    ]

    static func roundTrip(_ b: any ContractBackend) throws {
        let full = click("biq_clk_1")
        let bare = Click(
            id: "biq_clk_2", linkId: "l", appId: nil, domain: "d", at: t0 + 1, kind: .desktop, platform: .desktop)
        var claimed = handoff(8)
        claimed.claimedByInstance = "install_x"
        claimed.claimedByOpen = "biq_open_x"
        claimed.platform = .ios
        claimed.snapshot.referralCode = nil
        claimed.snapshot.dynamic = []
        try b.write { [claimed] tx in
            try tx.insertClick(full)
            try tx.insertClick(bare)
            try tx.insertHandoff(handoff(7))
            try tx.insertHandoff(claimed)
        }
        let r = b.committed
        XCTAssertEqual(try r.click(id: "biq_clk_1"), full)
        XCTAssertEqual(try r.click(id: "biq_clk_2"), bare)
        XCTAssertNil(try r.click(id: "biq_clk_3"))
        XCTAssertEqual(try r.handoff(tokenHash: handoff(7).tokenHash), handoff(7))
        XCTAssertEqual(try r.handoff(tokenHash: claimed.tokenHash), claimed)
        XCTAssertNil(try r.handoff(tokenHash: [1]))
    }

    static func firstInstanceOnly(_ b: any ContractBackend) throws {
        let token = handoff(1).tokenHash
        try b.write { tx in try tx.insertHandoff(handoff(1)) }
        XCTAssertTrue(try b.write { tx in try tx.claimHandoff(tokenHash: token, instance: "inst_A", openId: "o_1") })
        XCTAssertFalse(try b.write { tx in try tx.claimHandoff(tokenHash: token, instance: "inst_B", openId: "o_2") })
        // The holder's replay is accepted, and the first open stays recorded.
        XCTAssertTrue(try b.write { tx in try tx.claimHandoff(tokenHash: token, instance: "inst_A", openId: "o_3") })
        let stored = try b.committed.handoff(tokenHash: token)
        XCTAssertEqual(stored?.claimedByInstance, "inst_A")
        XCTAssertEqual(stored?.claimedByOpen, "o_1")
        XCTAssertFalse(try b.write { tx in try tx.claimHandoff(tokenHash: [0], instance: "inst_A", openId: "o_4") })
    }

    static func resolversClaim(_ b: any ContractBackend) throws {
        let stored = handoff(1, expiresAt: ContractTime.now + 90_000)
        try b.write { tx in try tx.insertHandoff(stored) }
        func claim(
            _ token: UInt8, app: String = Fixture.appId, platform: Platform = .android,
            now: Int64 = ContractTime.now, link: String? = nil, instance: String = "install_a",
            open: String = "biq_open_a"
        ) throws -> HandoffView? {
            try b.write { tx in
                try tx.claimHandoff(
                    tokenHash: [UInt8](repeating: token, count: 32), app: app, platform: platform, now: now,
                    linkId: link, instance: instance, openId: open)
            }
        }
        XCTAssertNil(try claim(1, app: "biq_mapp_other"))
        XCTAssertNil(try claim(1, platform: .ios))
        XCTAssertNil(try claim(1, now: stored.expiresAt), "expired at its expiry")
        XCTAssertNil(try claim(1, link: "biq_lnk_other"))
        XCTAssertNil(try claim(2))
        XCTAssertNil(try b.committed.handoff(tokenHash: stored.tokenHash)?.claimedByInstance, "nothing bound yet")

        let view = try XCTUnwrap(try claim(1, now: stored.expiresAt - 1, link: Fixture.linkId))
        let expected = HandoffView(stored)
        XCTAssertEqual(view.metadataJSON, expected.metadataJSON)
        XCTAssertEqual(
            [view.clickId, view.appId, view.linkId, view.shortUrl, view.route, view.referralCode],
            [
                expected.clickId, expected.appId, expected.linkId, expected.shortUrl, expected.route,
                expected.referralCode,
            ])
        XCTAssertEqual(view.platform, .android)
        XCTAssertTrue(view.dynamic.elementsEqual(expected.dynamic, by: ==))
        XCTAssertEqual([view.createdAt, view.expiresAt], [stored.createdAt, stored.expiresAt])
        XCTAssertEqual(try b.committed.handoff(tokenHash: stored.tokenHash)?.claimedByInstance, "install_a")
        XCTAssertEqual(try b.committed.handoff(tokenHash: stored.tokenHash)?.claimedByOpen, "biq_open_a")
        // Claimed: never again, not even by the same instance; the first binding stays.
        XCTAssertNil(try claim(1, instance: "install_b", open: "biq_open_b"))
        XCTAssertNil(try claim(1, open: "biq_open_c"))
        XCTAssertEqual(try b.committed.handoff(tokenHash: stored.tokenHash)?.claimedByOpen, "biq_open_a")
    }

    static func consumedOnce(_ b: any ContractBackend) throws {
        try b.write { tx in try tx.insertClick(click("biq_clk_1")) }
        XCTAssertTrue(try b.write { tx in try tx.consumeClick(id: "biq_clk_1", openId: "biq_open_1") })
        XCTAssertFalse(try b.write { tx in try tx.consumeClick(id: "biq_clk_1", openId: "biq_open_2") })
        XCTAssertFalse(try b.write { tx in try tx.consumeClick(id: "biq_clk_none", openId: "biq_open_2") })
    }

    static func candidates(_ b: any ContractBackend) throws {
        try b.write { tx in
            try tx.insertClick(click("c_match_old", at: t0 + 1_000))
            try tx.insertClick(click("c_match_new", at: t0 + 1_500))
            try tx.insertClick(click("c_other_os", at: t0 + 1_600, osVersion: "16.0"))
            try tx.insertClick(click("c_no_os", at: t0 + 1_700, osVersion: nil))
            try tx.insertClick(click("c_too_old", at: t0 + 999))
            try tx.insertClick(click("c_other_app", at: t0 + 1_100, app: "biq_mapp_other"))
            try tx.insertClick(click("c_other_domain", at: t0 + 1_100, host: "b.example.com"))
            try tx.insertClick(click("c_other_hash", at: t0 + 1_100, sourceHash: [9]))
            try tx.insertClick(click("c_no_hash", at: t0 + 1_100, sourceHash: nil))
            try tx.insertClick(click("c_android", at: t0 + 1_100, platform: .android))
            try tx.insertClick(click("c_consumed", at: t0 + 1_200))
        }
        XCTAssertTrue(try b.write { tx in try tx.consumeClick(id: "c_consumed", openId: "biq_open_1") })
        func ids(_ os: String?, since: Int64 = t0 + 1_000, limit: Int = 10) throws -> [String] {
            try b.write { tx in
                try tx.probabilisticCandidates(
                    app: Fixture.appId, domain: Fixture.host, sourceHash: [1, 2, 3], osVersion: os, since: since,
                    limit: limit
                ).map(\.id)
            }
        }
        XCTAssertEqual(try ids(nil), ["c_no_os", "c_other_os", "c_match_new", "c_match_old"])
        XCTAssertEqual(try ids("17.4"), ["c_match_new", "c_match_old"])
        XCTAssertEqual(try ids("17.4", limit: 1), ["c_match_new"])
        XCTAssertEqual(try ids(nil, limit: 0), [])
        let found = try b.write { tx in
            try tx.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: [1, 2, 3], osVersion: "16.0", since: t0,
                limit: 5)
        }
        XCTAssertEqual(found, [click("c_other_os", at: t0 + 1_600, osVersion: "16.0")])
    }
}
