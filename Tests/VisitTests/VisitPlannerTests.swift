import Model
import XCTest

@testable import Visit

/// The visit decision for HEAD, bots, desktop and Android visitors, and which app a plan
/// needs looked up (README, "What happens to a click"). iOS: `VisitPlannerIOSTests`.
final class VisitPlannerTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private let webClick = { (platform: VisitorPlatform) in
        VisitPlan(answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: platform))
    }

    // MARK: Which app is looked up

    func testDesktopAndHeadNeverLookTheAppUp() {
        XCTAssertNil(VisitPlanner.appToLoad(link: F.link(), visitor: F.desktop))
        XCTAssertNil(VisitPlanner.appToLoad(link: F.link(), visitor: F.head))
    }

    func testBotsAndMobileVisitorsLookUpTheLinksApp() {
        for visitor in [F.bot, F.android, F.iphone] {
            XCTAssertEqual(VisitPlanner.appToLoad(link: F.link(), visitor: visitor), F.appId, "\(visitor)")
        }
    }

    func testAWebOnlyLinkHasNoAppToLookUp() {
        for visitor in [F.head, F.bot, F.desktop, F.android, F.iphone] {
            XCTAssertNil(VisitPlanner.appToLoad(link: F.link(mobile: false), visitor: visitor), "\(visitor)")
        }
    }

    // MARK: HEAD and bots

    func testHeadGetsTheRedirectsHeadersAndRecordsNothing() {
        XCTAssertEqual(F.plan(F.head), VisitPlan(answer: .redirect(.web)))
        XCTAssertEqual(F.plan(F.head, link: F.link(mobile: false), app: nil), VisitPlan(answer: .redirect(.web)))
    }

    func testBotsGetThePreviewAndNoClickWithOrWithoutAnApp() {
        let preview = VisitPlan(answer: .preview(pageFallback: .web))
        XCTAssertEqual(F.plan(F.bot), preview)
        XCTAssertEqual(F.plan(Visitor(kind: .bot("empty"))), preview)
        XCTAssertEqual(F.plan(F.bot, app: nil), preview)
        XCTAssertEqual(F.plan(F.bot, app: F.app(enabled: false)), preview)
        XCTAssertEqual(F.plan(F.bot, link: F.link(mobile: false), app: nil), preview)
    }

    // MARK: Desktop

    func testDesktopGoesToTheWebURLWithAClickWrittenWithoutWaiting() {
        XCTAssertEqual(F.plan(F.desktop, app: nil), webClick(.desktop))
        XCTAssertEqual(F.plan(F.desktop, link: F.link(mobile: false), app: nil), webClick(.desktop))
    }

    func testDesktopIgnoresAnAppEvenOneThatCollectsTheProbabilisticSignal() {
        let app = F.app(ios: F.ios(probabilistic: true))
        XCTAssertEqual(F.plan(F.desktop, app: app), webClick(.desktop))
    }

    // MARK: Android

    func testAndroidWithTheAppsAndroidPlatformGoesToPlayWithADurableHandoff() {
        XCTAssertEqual(
            F.plan(F.android),
            VisitPlan(
                answer: .playStore(writeFallback: .playStore),
                click: PlannedClick(kind: .androidRedirect, platform: .android), handoff: .android))
    }

    func testAndroidIgnoresTheDeepViewSwitchesAndTheIOSPlatform() {
        let play = F.plan(F.android)
        XCTAssertEqual(F.plan(F.android, domain: F.domain(deepView: false)), play)
        XCTAssertEqual(F.plan(F.android, link: F.link(deepView: false)), play)
        XCTAssertEqual(F.plan(F.android, app: F.app(ios: nil)), play)
        XCTAssertEqual(F.plan(F.android, app: F.app(ios: F.ios(probabilistic: true))), play)
        XCTAssertEqual(F.plan(F.android, app: F.app(android: F.android(playStoreUrl: "https://x.test/p"))), play)
    }

    /// With every escape turned off; with them, `VisitPlannerInAppTests` (decision 0033).
    func testAndroidInAnInAppBrowserGetsTheSamePlanWithoutItsEscapes() {
        XCTAssertEqual(
            VisitPlanner.plan(
                link: F.link(), app: F.app(), domain: F.domain(), visitor: F.androidInApp, inAppEscapes: []),
            F.plan(F.android))
    }

    func testAndroidOfAWebOnlyLinkMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.android, link: F.link(mobile: false), app: nil), webClick(.android))
        // Whatever app the caller passes: the link has no mobile payload.
        XCTAssertEqual(F.plan(F.android, link: F.link(mobile: false)), webClick(.android))
    }

    func testAndroidWhoseAppIsGoneMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.android, app: nil), webClick(.android))
    }

    func testAndroidWhoseAppIsDisabledMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.android, app: F.app(enabled: false)), webClick(.android))
    }

    func testAndroidWhoseAppHasNoAndroidPlatformMakesADesktopClick() {
        XCTAssertEqual(F.plan(F.android, app: F.app(android: nil)), webClick(.android))
    }
}
