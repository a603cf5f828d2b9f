import Core
import Model
import Store
import XCTest

@testable import Resolver

final class HandoffTests: XCTestCase {
    func testAndroidHandoffIsExactInstallReferrerWithClickTimeSnapshot() {
        let w = World()
        let (token, clickId) = w.addHandoff(platform: .android)
        // The link changed after the click: the handoff still answers the snapshot.
        let id = w.inviteId
        w.store.seed { $0.links[id]!.mobile!.route = "/invite/edited" }
        var r = w.android()
        r.handoffToken = token
        let a = w.resolve(r)
        a.assertMatch("exact_install_referrer")
        XCTAssertEqual(a.confidence, "exact")
        XCTAssertEqual(a.route, "/invite/snapshot")
        XCTAssertEqual(a.linkId, w.inviteId)
        XCTAssertEqual(a.clickId, clickId)
        XCTAssertEqual(a.json["link"]?["shortUrl"]?.stringValue, "https://go.example.test/invite")
        XCTAssertEqual(a.referralCode, "PARTNER_42")
        XCTAssertEqual(a.json["attribution"]?["metadata"], ["campaign": "snapshot"])
        XCTAssertEqual(a.json["attribution"]?["dynamic"], ["ref": "BOB"])
        XCTAssertNotNil(a.receipt)
        let h = w.store.committed.handoffs[HandoffToken.hash(token)]!
        XCTAssertEqual(h.claimedByInstance, r.appInstanceId)
        XCTAssertEqual(h.claimedByOpen, a.openId)
        let instance = w.store.committed.instances[MemoryState.instanceKey(w.appId, r.appInstanceId)]
        XCTAssertEqual(instance?.firstOpenId, a.openId)
    }

    func testIOSPastedHandoffIsExactHandoff() {
        let w = World()
        var r = w.ios()
        r.handoffToken = w.addHandoff(platform: .ios).token
        let a = w.resolve(r)
        a.assertMatch("exact_handoff")
        XCTAssertEqual(a.confidence, "exact")
    }

    func testHandoffIsBoundToTheFirstInstanceAndReplaysForIt() {
        let w = World()
        let token = w.addHandoff(platform: .android).token
        var first = w.android()
        first.handoffToken = token
        first.firstOpen = false
        let a = w.resolve(first)
        a.assertMatch("exact_install_referrer")

        var sameInstance = w.android(instance: first.appInstanceId)
        sameInstance.handoffToken = token
        sameInstance.firstOpen = false
        let again = w.resolve(sameInstance)
        again.assertMatch("exact_install_referrer")
        XCTAssertEqual(again.openId, a.openId, "the same accepted result")
        XCTAssertNil(again.receipt)
        XCTAssertEqual(w.openEvents.count, 1)

        var other = w.android()
        other.handoffToken = token
        let refused = w.resolve(other)
        refused.assertError(404, "resource_not_found")
        XCTAssertFalse(refused.bodyText.contains(token))
    }

    func testExpiredHandoffIsResourceNotFound() {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android, lifetime: 60_000).token
        w.now += 60_000
        w.resolve(r).assertError(404, "resource_not_found")
        XCTAssertTrue(w.openEvents.isEmpty)
    }

    func testUnknownMalformedOtherPlatformOrOtherAppHandoffIsResourceNotFound() {
        let w = World()
        let tokens = [
            World.makeToken(), "bqmh_short", "bqmh_" + String(repeating: "!", count: 43), "",
            w.addHandoff(platform: .ios).token, w.addHandoff(platform: .android, app: w.otherAppId).token,
        ]
        for token in tokens {
            var r = w.android()
            r.handoffToken = token
            w.resolve(r).assertError(404, "resource_not_found")
        }
        XCTAssertTrue(w.openEvents.isEmpty)
    }

    func testHandoffAndDeepLinkNamingDifferentLinksIsHandoffMismatch() {
        let w = World()
        var r = w.ios()
        r.handoffToken = w.addHandoff(platform: .ios).token
        r.deepLink = "https://go.example.test/promo"
        w.resolve(r).assertError(422, "handoff_mismatch")
        XCTAssertTrue(w.openEvents.isEmpty)
        XCTAssertNil(w.store.committed.handoffs.values.first!.claimedByInstance, "nothing claimed")
    }

    func testHandoffAndDeepLinkNamingTheSameLinkResolveTheHandoff() {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        r.deepLink = "https://go.example.test/invite?ref=ZED"
        let a = w.resolve(r)
        a.assertMatch("exact_install_referrer")
        XCTAssertEqual(a.route, "/invite/snapshot")
    }

    func testHandoffWithAnUnmatchableDeepLinkResolvesTheHandoff() {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        r.deepLink = "https://elsewhere.example/invite"
        w.resolve(r).assertMatch("exact_install_referrer")
    }

    func testHandoffTokenTokenShape() {
        XCTAssertTrue(HandoffToken.isWellFormed(World.makeToken()))
        XCTAssertEqual(World.makeToken().count, 48)
        XCTAssertFalse(HandoffToken.isWellFormed("bqmh_" + String(repeating: "a", count: 42)))
        XCTAssertFalse(HandoffToken.isWellFormed("bqmx_" + String(repeating: "a", count: 43)))
    }
}
