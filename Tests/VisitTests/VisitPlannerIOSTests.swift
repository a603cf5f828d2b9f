import Model
import XCTest

@testable import Visit

/// The visit decision for iOS visitors: the Deep View when both switches are on and there
/// is a store to send to, else the iOS fallback (seed 002); a web-only link, or an app
/// that is gone, disabled or without iOS, behaves as a web link.
final class VisitPlannerIOSTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private func deepView(page: VisitTarget, write: VisitTarget, sourceHash: Bool = false) -> VisitPlan {
        VisitPlan(
            answer: .deepView(pageFallback: page, writeFallback: write),
            click: PlannedClick(kind: .deepView, platform: .ios, sourceHash: sourceHash), handoff: .ios)
    }

    private func fallback(_ target: VisitTarget, sourceHash: Bool = false) -> VisitPlan {
        VisitPlan(
            answer: .redirect(target), click: PlannedClick(kind: .iosFallback, platform: .ios, sourceHash: sourceHash))
    }

    private func webClick(sourceHash: Bool = false) -> VisitPlan {
        VisitPlan(answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .ios, sourceHash: sourceHash))
    }

    // MARK: Deep View

    func testBothSwitchesOnGiveTheDeepViewWithADurableHandoff() {
        // A failed write sends to the fallback URL; so does a page that cannot be built.
        XCTAssertEqual(F.plan(F.iphone), deepView(page: .iosFallback, write: .iosFallback))
    }

    func testDeepViewWithoutAFallbackURLFallsBackToTheStoreOrTheWebURL() {
        // A failed write still reaches the store; a page that cannot be built has a store
        // URL that is no https: URL, so it goes to the web URL instead.
        let app = F.app(ios: F.ios(fallbackUrl: nil))
        XCTAssertEqual(F.plan(F.iphone, app: app), deepView(page: .web, write: .iosStore))
    }

    func testTestFlightAloneIsAStoreForTheDeepView() {
        let app = F.app(ios: F.ios(appStoreId: nil, testFlightUrl: F.testFlightURL))
        XCTAssertEqual(F.plan(F.iphone, app: app), deepView(page: .iosFallback, write: .iosFallback))
        let bare = F.app(ios: F.ios(appStoreId: nil, testFlightUrl: F.testFlightURL, fallbackUrl: nil))
        XCTAssertEqual(F.plan(F.iphone, app: bare), deepView(page: .web, write: .iosStore))
    }

    func testDeepViewClickKeepsTheSourceHashOnlyWhenTheAppAllowsProbabilisticMatching() {
        let app = F.app(ios: F.ios(probabilistic: true))
        XCTAssertEqual(F.plan(F.iphone, app: app), deepView(page: .iosFallback, write: .iosFallback, sourceHash: true))
    }

    /// In an in-app browser, the Deep View gains its in-app part: `VisitPlannerInAppIOSTests`.
    func testIOSWithoutAVersionGetsTheSamePlan() {
        XCTAssertEqual(F.plan(Visitor(kind: .ios(osVersion: nil))), F.plan(F.iphone))
    }

    // MARK: Either switch off: the iOS fallback, no handoff

    func testDomainSwitchOffGoesToTheFallbackURL() {
        XCTAssertEqual(F.plan(F.iphone, domain: F.domain(deepView: false)), fallback(.iosFallback))
    }

    func testLinkSwitchOffGoesToTheFallbackURL() {
        XCTAssertEqual(F.plan(F.iphone, link: F.link(deepView: false)), fallback(.iosFallback))
    }

    func testBothSwitchesOffGoToTheFallbackURL() {
        let plan = F.plan(F.iphone, link: F.link(deepView: false), domain: F.domain(deepView: false))
        XCTAssertEqual(plan, fallback(.iosFallback))
    }

    func testSwitchOffWithoutAFallbackURLGoesToTheStore() {
        let app = F.app(ios: F.ios(fallbackUrl: nil))
        XCTAssertEqual(F.plan(F.iphone, app: app, domain: F.domain(deepView: false)), fallback(.iosStore))
        let flight = F.app(ios: F.ios(appStoreId: nil, testFlightUrl: F.testFlightURL, fallbackUrl: nil))
        XCTAssertEqual(F.plan(F.iphone, link: F.link(deepView: false), app: flight), fallback(.iosStore))
    }

    func testSwitchOffWithoutFallbackOrStoreGoesToTheWebURL() {
        let app = F.app(ios: F.ios(appStoreId: nil, fallbackUrl: nil))
        XCTAssertEqual(F.plan(F.iphone, app: app, domain: F.domain(deepView: false)), fallback(.web))
    }

    func testSwitchOffClickKeepsTheSourceHashWhenTheAppAllowsIt() {
        let app = F.app(ios: F.ios(probabilistic: true))
        let plan = F.plan(F.iphone, app: app, domain: F.domain(deepView: false))
        XCTAssertEqual(plan, fallback(.iosFallback, sourceHash: true))
    }

    // MARK: Both switches on but no store: the fallback too

    func testNoStoreURLGivesTheFallbackURLInsteadOfTheDeepView() {
        // An empty App Store ID is no ID.
        for appStoreId in [nil, ""] as [String?] {
            let app = F.app(ios: F.ios(appStoreId: appStoreId))
            XCTAssertEqual(F.plan(F.iphone, app: app), fallback(.iosFallback), "\(String(describing: appStoreId))")
        }
    }

    func testNoStoreAndNoFallbackURLGoesToTheWebURL() {
        let app = F.app(ios: F.ios(appStoreId: nil, fallbackUrl: nil, probabilistic: true))
        XCTAssertEqual(F.plan(F.iphone, app: app), fallback(.web, sourceHash: true))
    }

    // MARK: No app to send to: a web link

    func testWebOnlyLinkMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.iphone, link: F.link(mobile: false), app: nil), webClick())
        // Whatever app the caller passes: the link has no mobile payload.
        XCTAssertEqual(F.plan(F.iphone, link: F.link(mobile: false)), webClick())
    }

    func testAppGoneMakesADesktopClickWithoutTheSourceHash() {
        XCTAssertEqual(F.plan(F.iphone, app: nil), webClick())
    }

    func testDisabledAppMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.iphone, app: F.app(enabled: false)), webClick())
    }

    func testDisabledAppThatAllowsProbabilisticMatchingStillHasTheSourceHashCollected() {
        // As before the plan existed: the app's switch decides, enabled or not.
        let app = F.app(enabled: false, ios: F.ios(probabilistic: true))
        XCTAssertEqual(F.plan(F.iphone, app: app), webClick(sourceHash: true))
    }

    func testAppWithoutAnIOSPlatformMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.iphone, app: F.app(ios: nil)), webClick())
    }
}
