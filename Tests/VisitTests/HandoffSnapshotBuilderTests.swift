import Core
import Model
import XCTest

@testable import Visit

final class HandoffSnapshotBuilderTests: XCTestCase {
    private func link(referral: String? = nil, keys: [String] = ["ref", "campaign"]) -> Link {
        Link(
            id: "biq_lnk_01J00000000000000000000001", domain: "go.example.com", key: "invite",
            url: "https://example.com/invite",
            mobile: MobilePayload(
                appId: "biq_mapp_01J00000000000000000000001", route: "/invite/42", referralCode: referral,
                metadata: ["tier": "gold", "n": 3], dynamicKeys: keys))
    }

    func testSnapshotCopiesTheMobilePayloadAndTheCapturedValues() throws {
        let l = link()
        let dynamic = DynamicValues.capture(query: "campaign=spring&ref=bob&x=1", allowed: l.mobile!.dynamicKeys)
        let snap = try XCTUnwrap(HandoffSnapshotBuilder.snapshot(link: l, dynamic: dynamic))
        XCTAssertEqual(
            snap,
            HandoffSnapshot(
                linkId: l.id, shortUrl: "https://go.example.com/invite", route: "/invite/42", referralCode: "bob",
                metadata: ["tier": "gold", "n": 3], dynamic: [("campaign", "spring"), ("ref", "bob")]))
    }

    func testShortURLIsTheLinksOwn() {
        for (domain, key) in [("go.example.com", "invite"), ("x.io", "A_b-9"), ("bücher.example", "k"), ("", "")] {
            var l = link()
            l.domain = domain
            l.key = key
            XCTAssertEqual(l.shortUrl, "https://" + domain + "/" + key)
            XCTAssertEqual(HandoffSnapshotBuilder.snapshot(link: l, dynamic: [])?.shortUrl, l.shortUrl)
        }
    }

    func testStaticReferralCodeWinsInTheSnapshot() throws {
        let snap = try XCTUnwrap(HandoffSnapshotBuilder.snapshot(link: link(referral: "STATIC"), query: "ref=bob"))
        XCTAssertEqual(snap.referralCode, "STATIC")
        XCTAssertEqual(snap.dynamic.map { "\($0.0)=\($0.1)" }, ["ref=bob"])
    }

    func testNoReferralCodeWithoutStaticOrAllowedRef() throws {
        let snap = try XCTUnwrap(HandoffSnapshotBuilder.snapshot(link: link(keys: ["campaign"]), query: "ref=bob"))
        XCTAssertNil(snap.referralCode)
        XCTAssertTrue(snap.dynamic.isEmpty)
    }

    func testLaterEditsOfTheLinkDoNotChangeASnapshot() throws {
        var l = link(referral: "OLD")
        let snap = try XCTUnwrap(HandoffSnapshotBuilder.snapshot(link: l, query: nil))
        l.mobile?.route = "/changed"
        l.mobile?.referralCode = "NEW"
        l.mobile?.metadata = ["tier": "silver"]
        XCTAssertEqual(snap.route, "/invite/42")
        XCTAssertEqual(snap.referralCode, "OLD")
        XCTAssertEqual(snap.metadata, ["tier": "gold", "n": 3])
        XCTAssertEqual(try XCTUnwrap(HandoffSnapshotBuilder.snapshot(link: l, query: nil)).route, "/changed")
    }

    func testNonMobileLinkHasNoSnapshot() {
        let web = Link(
            id: "biq_lnk_01J00000000000000000000002", domain: "go.example.com", key: "web", url: "https://e.com")
        XCTAssertNil(HandoffSnapshotBuilder.snapshot(link: web, query: "ref=bob"))
        XCTAssertNil(HandoffSnapshotBuilder.snapshot(link: web, dynamic: []))
    }

    func testHandoffURLIsWhatTheIOSSDKParses() {
        let token = HandoffToken.generate()
        let url = HandoffSnapshotBuilder.handoffURL(domain: "go.example.com", token: token)
        XCTAssertEqual(url, "https://go.example.com/m/handoff?biqli_token=" + token)
        XCTAssertEqual(url.utf8.count, "https://go.example.com/m/handoff?biqli_token=".utf8.count + 48)
    }

    func testHandoffRecordHashesTheTokenAndExpiresAfterTheAppsLifetime() throws {
        let token = HandoffToken.generate()
        let app = MobileApp(
            id: "biq_mapp_01J00000000000000000000001", name: "App", handoffLifetimeSeconds: 3600)
        let snap = try XCTUnwrap(HandoffSnapshotBuilder.snapshot(link: link(), query: nil))
        let h = HandoffSnapshotBuilder.handoff(
            token: token, clickId: "biq_clk_01J00000000000000000000001", app: app, platform: .android, snapshot: snap,
            now: 1_000_000)
        XCTAssertEqual(h.tokenHash, HandoffToken.hash(token))
        XCTAssertNotEqual(h.tokenHash, Array(token.utf8), "the token itself is never stored")
        XCTAssertEqual(h.createdAt, 1_000_000)
        XCTAssertEqual(h.expiresAt, 1_000_000 + 3_600_000)
        XCTAssertEqual(h.appId, app.id)
        XCTAssertEqual(h.platform, .android)
        XCTAssertEqual(h.snapshot, snap)
        XCTAssertNil(h.claimedByInstance)
    }
}
