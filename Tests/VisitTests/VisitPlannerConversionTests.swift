import Model
import XCTest

@testable import Visit

/// Conversion tracking (issue 25): which visits hand the click's id to the web
/// destination, and so wait for the click to be durable.
final class VisitPlannerConversionTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private let tracked = F.link(trackConversions: true)

    func testATrackedLinksWebRedirectsCarryTheClickId() {
        XCTAssertEqual(
            F.plan(F.desktop, link: tracked),
            VisitPlan(
                answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .desktop), carriesClickId: true))
        // Mobile visitors sent to the web: a web-only link, or an app that is off.
        XCTAssertEqual(
            F.plan(F.android, link: F.link(mobile: false, trackConversions: true), app: nil),
            VisitPlan(
                answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .android), carriesClickId: true))
        XCTAssertTrue(F.plan(F.iphone, link: tracked, app: F.app(enabled: false)).carriesClickId)
        XCTAssertTrue(F.plan(F.android, link: tracked, app: nil).carriesClickId)
    }

    func testAnswersThatDoNotGoToTheWebDestinationCarryNone() {
        // The store, the Deep View, the iOS fallback URL: not the customer's site.
        XCTAssertFalse(F.plan(F.android, link: tracked).carriesClickId)
        XCTAssertFalse(F.plan(F.iphone, link: tracked).carriesClickId)
        XCTAssertFalse(F.plan(F.iphone, link: F.link(deepView: false, trackConversions: true)).carriesClickId)
        // No click, no id: HEAD and bots.
        XCTAssertEqual(F.plan(F.head, link: tracked), VisitPlan(answer: .redirect(.web)))
        XCTAssertFalse(F.plan(F.bot, link: tracked).carriesClickId)
    }

    func testTheLinkSaysElseTheDomain() {
        let on = F.domain(trackConversions: true)
        XCTAssertFalse(F.plan(F.desktop).carriesClickId)
        XCTAssertTrue(F.plan(F.desktop, domain: on).carriesClickId)
        XCTAssertFalse(F.plan(F.desktop, link: F.link(trackConversions: false), domain: on).carriesClickId)
        XCTAssertTrue(F.plan(F.desktop, link: tracked, domain: F.domain()).carriesClickId)
    }
}
