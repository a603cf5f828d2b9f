import Core
import Model
import Store
import XCTest

@testable import Resolver

final class ProbabilisticTests: XCTestCase {
    /// An iOS first open that asks for probabilistic matching on the app's domain.
    private func consenting(_ w: World) -> SDKRequest {
        var r = w.ios()
        r.probabilisticAllowed = true
        r.domain = "go.example.test"
        return r
    }

    func testExactlyOneCandidateMatchesProbabilisticallyAndConsumesTheClick() {
        let w = World()
        let clickId = w.addIOSClick(dynamic: [("ref", "ALICE"), ("dropped", "x")])
        let promo = w.promoId
        let a = w.resolve(consenting(w))
        a.assertMatch("probabilistic")
        XCTAssertEqual(a.confidence, "probabilistic")
        XCTAssertEqual(a.clickId, clickId)
        XCTAssertEqual(a.linkId, w.inviteId)
        XCTAssertEqual(a.route, "/invite/accepted", "the link's current payload")
        XCTAssertEqual(a.json["attribution"]?["dynamic"], ["ref": "ALICE"])
        XCTAssertNotNil(a.receipt)
        XCTAssertEqual(w.store.committed.consumedClicks[clickId], a.openId)
        XCTAssertNotEqual(promo, a.linkId)

        // The click is used up: the next install from the same address gets none.
        w.resolve(consenting(w)).assertMatch("none")
    }

    func testZeroCandidatesIsNone() {
        let w = World()
        w.addIOSClick(address: "198.51.100.1")  // another address
        w.addIOSClick(ago: 61 * 60_000)  // outside the window
        w.addIOSClick(osVersion: "16.0")  // another OS version
        w.addIOSClick(domain: "unverified.example.test")  // another domain
        let a = w.resolve(consenting(w))
        a.assertMatch("none")
        XCTAssertNil(a.receipt)
        XCTAssertTrue(w.store.committed.consumedClicks.isEmpty)
    }

    func testTwoCandidatesAreAmbiguousAndNone() {
        let w = World()
        w.addIOSClick(ago: 60_000)
        w.addIOSClick(ago: 120_000, linkId: w.promoId)
        w.resolve(consenting(w)).assertMatch("none")
        XCTAssertTrue(w.store.committed.consumedClicks.isEmpty)
    }

    func testWindowComesFromTheApp() {
        let w = World()
        w.updateApp { $0.ios?.probabilisticWindowMinutes = 5 }
        w.addIOSClick(ago: 6 * 60_000)
        w.resolve(consenting(w)).assertMatch("none")
        w.addIOSClick(ago: 4 * 60_000)
        w.resolve(consenting(w)).assertMatch("probabilistic")
    }

    func testRequestWithoutOSVersionMatchesAnyOSVersion() {
        let w = World()
        w.addIOSClick(osVersion: "16.0")
        var r = consenting(w)
        r.osVersion = nil
        w.resolve(r).assertMatch("probabilistic")
    }

    func testIPv4MappedSourceAddressMatchesTheIPv4Click() {
        let w = World()
        w.addIOSClick(address: "203.0.113.9")
        var r = consenting(w)
        r.sourceAddress = "::ffff:203.0.113.9"
        w.resolve(r).assertMatch("probabilistic")
    }

    func testWithoutConsentProbabilisticDoesNotRunEvenWithABadDomain() {
        let w = World()
        w.addIOSClick()
        var r = consenting(w)
        r.probabilisticAllowed = false
        w.resolve(r).assertMatch("none")
        r = consenting(w)
        r.probabilisticAllowed = false
        r.domain = "nowhere.example"
        w.resolve(r).assertMatch("none")
    }

    func testLaterOpenDoesNotRunProbabilistic() {
        let w = World()
        w.addIOSClick()
        var r = consenting(w)
        r.firstOpen = false
        r.domain = "nowhere.example"
        w.resolve(r).assertMatch("none")
        XCTAssertTrue(w.store.committed.consumedClicks.isEmpty)
    }

    func testDeepLinkPresentMeansNoProbabilisticAndNoError() {
        let w = World()
        w.addIOSClick()
        var r = consenting(w)
        r.deepLink = "https://elsewhere.example/x"
        r.domain = "elsewhere.example"
        w.resolve(r).assertMatch("none")
        XCTAssertTrue(w.store.committed.consumedClicks.isEmpty)
    }

    func testAppWithoutProbabilisticFallbackNeverRunsIt() {
        let w = World()
        w.updateApp { $0.ios?.probabilisticFallback = false }
        w.addIOSClick()
        var r = consenting(w)
        r.domain = nil
        w.resolve(r).assertMatch("none")
    }

    func testAndroidNeverRunsProbabilistic() {
        let w = World()
        var r = w.android()
        r.probabilisticAllowed = true
        r.domain = nil
        w.resolve(r).assertMatch("none")
    }

    func testIneligibleDomainIsInvalidProbabilisticDomainOnlyWhenItWouldRun() {
        let w = World()
        w.httpsHosts.value.remove("go.example.test")
        var inactive = consenting(w)
        inactive.domain = "go.example.test"
        w.resolve(inactive).assertError(422, "invalid_probabilistic_domain")
        w.httpsHosts.value.insert("go.example.test")

        for domain in [nil, "unverified.example.test", "other.example.test", "nowhere.example"] as [String?] {
            var r = consenting(w)
            r.domain = domain
            w.resolve(r).assertError(422, "invalid_probabilistic_domain")
        }
        XCTAssertTrue(w.openEvents.isEmpty)
    }

    func testDomainIsCaseInsensitive() {
        let w = World()
        w.addIOSClick()
        var r = consenting(w)
        r.domain = "Go.Example.TEST"
        w.resolve(r).assertMatch("probabilistic")
    }

    func testCandidateWhoseLinkWasDisabledIsNone() {
        let w = World()
        w.addIOSClick()
        let id = w.inviteId
        w.store.seed { $0.links[id]!.enabled = false }
        w.resolve(consenting(w)).assertMatch("none")
        XCTAssertTrue(w.store.committed.consumedClicks.isEmpty, "a click that matched nothing stays usable")
    }
}
