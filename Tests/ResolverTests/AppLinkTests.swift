import Core
import Model
import Store
import XCTest

@testable import Resolver

final class AppLinkTests: XCTestCase {
    func testInstalledAppOpenIsExactAppLinkWithCurrentPayload() {
        let w = World()
        let id = w.inviteId
        w.store.seed { $0.links[id]!.mobile!.route = "/invite/current" }
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite?ref=BOB&campaign=fall&utm_source=x"
        r.domain = "go.example.test"
        let a = w.resolve(r)
        a.assertMatch("exact_app_link")
        XCTAssertEqual(a.confidence, "exact")
        XCTAssertEqual(a.route, "/invite/current")
        XCTAssertEqual(a.linkId, w.inviteId)
        XCTAssertTrue(a.json["click"]?.isNull ?? false, "no click: the edge never saw this visit")
        XCTAssertEqual(a.referralCode, "PARTNER_42", "static referral code wins")
        XCTAssertEqual(a.json["attribution"]?["dynamic"], ["ref": "BOB", "campaign": "fall"])
        XCTAssertEqual(a.json["attribution"]?["metadata"], ["campaign": "spring_launch"])
        XCTAssertNotNil(a.receipt)
    }

    func testAllowedRefSuppliesReferralCodeWhenThereIsNoStaticOne() {
        let w = World()
        var r = w.android()
        r.deepLink = "https://go.example.test/promo?ref=ALICE+B&utm=%F0%9F%8E%89&other=1"
        let a = w.resolve(r)
        a.assertMatch("exact_app_link")
        XCTAssertEqual(a.referralCode, "ALICE B")
        XCTAssertEqual(a.json["attribution"]?["dynamic"], ["ref": "ALICE B", "utm": "🎉"])
    }

    func testUnmatchableDeepLinksAreAlways200None() {
        let w = World()
        let links = [
            "https://elsewhere.example/invite",  // foreign host
            "https://unverified.example.test/invite",  // attached but unverified
            "https://other.example.test/invite",  // verified, not attached to the app
            "https://go.example.test/invite/more",  // two segments
            "https://go.example.test/invite/",  // trailing slash
            "https://go.example.test/",  // no segment
            "https://go.example.test",
            "https://go.example.test/unknown",
            "https://go.example.test/INVITE",  // keys are case-sensitive
            "https://go.example.test/off",  // disabled link
            "https://go.example.test/web",  // no mobile payload
            "https://go.example.test/theirs",  // another app's link
            "https://user:pw@go.example.test/invite",  // credentials
            "https://go.example.test/invite#frag",  // fragment
            "https://go.example.test/invite?ref=X#frag",
            "https://go.example.test/invite#",
            "http://go.example.test/invite",  // not https
            "https://go.example.test:8443/invite",
            "https://[::1]/invite",
            "go.example.test/invite",
            "not a url at all",
            "",
            "https://go.example.test/invite?ref=%ZZ",
        ]
        for (i, link) in links.enumerated() {
            var r = i % 2 == 0 ? w.ios() : w.android()
            r.deepLink = link
            r.probabilisticAllowed = true
            let a = w.resolve(r)
            if link.hasSuffix("%ZZ") {
                a.assertMatch("exact_app_link")  // a malformed pair is dropped, not the link
                continue
            }
            a.assertMatch("none")
            XCTAssertTrue(a.json["link"]?.isNull ?? false, link)
            XCTAssertNil(a.receipt)
        }
    }

    func testHostIsCaseInsensitiveAndPort443IsTheDefault() {
        let w = World()
        for link in ["HTTPS://Go.Example.Test/invite", "https://go.example.test:443/invite"] {
            var r = w.android()
            r.deepLink = link
            w.resolve(r).assertMatch("exact_app_link")
        }
    }

    func testDeepLinkParser() {
        XCTAssertEqual(
            DeepLink.parse("https://go.example.test/invite?a=1"),
            DeepLink(host: "go.example.test", key: "invite", query: "a=1"))
        XCTAssertEqual(DeepLink.parse("https://go.example.test/invite?")?.query, "")
        XCTAssertNil(DeepLink.parse("https://go.example.test/invite?")?.query?.first)
        XCTAssertNil(DeepLink.parse("https://go.example.test/inv ite"))
        XCTAssertNil(DeepLink.parse("https://go.example.test/invité"))
        XCTAssertNil(DeepLink.parse("https://@go.example.test/invite"))
        XCTAssertNil(DeepLink.parse("https://:443/invite"))
    }

    func testDynamicValuesFollowSeedRules() {
        let long = String(repeating: "x", count: 257)
        let pairs: [(String, String)] = [
            ("ref", ""), ("ref", "FIRST"), ("ref", "SECOND"), ("campaign", long), ("campaign", "ok"), ("nope", "x"),
        ]
        let out = DynamicValues.filter(pairs, allowed: ["ref", "campaign"])
        XCTAssertEqual(out.map(\.0), ["ref", "campaign"])
        XCTAssertEqual(out.map(\.1), ["FIRST", "ok"])
        let many = (0..<30).map { ("k\($0)", "v") }
        XCTAssertEqual(DynamicValues.filter(many, allowed: many.map(\.0)).count, 20)
        XCTAssertNil(DynamicValues.referralCode(static: nil, dynamic: [("ref", String(repeating: "r", count: 129))]))
        XCTAssertEqual(DynamicValues.referralCode(static: "", dynamic: [("ref", "R")]), "R")
    }

    func testQueryDecoding() {
        let pairs = QueryString.pairs("a=1&b=x+y&c=%2F%41&&d&e=%zz&f=%C3")
        XCTAssertEqual(pairs.map(\.0), ["a", "b", "c", "d"])
        XCTAssertEqual(pairs.map(\.1), ["1", "x y", "/A", ""])
    }
}
