import Model
import XCTest

@testable import Visit

/// Android visitors inside in-app web views (issue 36, decision 0033): the app's intent
/// when its App Links are set up, else the Play Store app's intent, each as the operator
/// allows; a regular browser keeps the Play redirect.
final class VisitPlannerInAppTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private func plan(
        _ visitor: Visitor = F.androidInApp, appLinks: Bool, allowed: Set<InAppEscape>? = nil, link: Link = F.link()
    ) -> VisitPlan {
        VisitPlanner.plan(
            link: link, app: F.app(android: F.android(appLinks: appLinks)), domain: F.domain(), visitor: visitor,
            inAppEscapes: allowed)
    }

    func testAnAppWithAppLinksGetsItsOwnIntentFirst() {
        XCTAssertEqual(
            plan(appLinks: true),
            VisitPlan(
                answer: .appIntent(writeFallback: .playStore),
                click: PlannedClick(kind: .appIntent, platform: .android), handoff: .android))
    }

    func testAnAppWithoutAppLinksGetsThePlayStoreAppsIntent() {
        XCTAssertEqual(
            plan(appLinks: false),
            VisitPlan(
                answer: .playIntent(writeFallback: .playStore),
                click: PlannedClick(kind: .playIntent, platform: .android), handoff: .android))
    }

    func testTheOperatorsSwitchesAreFollowed() {
        XCTAssertEqual(plan(appLinks: true, allowed: [.playIntent]).answer, .playIntent(writeFallback: .playStore))
        XCTAssertEqual(plan(appLinks: true, allowed: [.safari]).answer, .playStore(writeFallback: .playStore))
        XCTAssertEqual(plan(appLinks: false, allowed: [.appIntent]).answer, .playStore(writeFallback: .playStore))
        XCTAssertEqual(plan(appLinks: true, allowed: []).click?.kind, .androidRedirect)
    }

    func testARegularBrowserAndAWebLinkAreUnchanged() {
        XCTAssertEqual(
            plan(F.android, appLinks: true), F.plan(F.android, app: F.app(android: F.android(appLinks: true))))
        XCTAssertEqual(plan(F.android, appLinks: true).answer, .playStore(writeFallback: .playStore))
        XCTAssertEqual(plan(appLinks: true, link: F.link(mobile: false)).answer, .redirect(.web))
    }

    func testALinkWithOptionsPassesTheSwitchesOn() {
        var link = F.link()
        link.options = LinkOptions(utm: UTMParameters(source: "s"))
        var random = SeededGenerator(seed: 1)
        let facts = VisitFacts(now: 0, inAppEscapes: [.playIntent])
        let planned = VisitPlanner.plan(
            link: link, app: F.app(android: F.android(appLinks: true)), domain: F.domain(), visitor: F.androidInApp,
            facts: facts, random: &random)
        XCTAssertEqual(planned.answer, .playIntent(writeFallback: .playStore))
    }
}
