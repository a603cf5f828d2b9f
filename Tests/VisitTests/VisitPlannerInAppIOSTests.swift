import Model
import XCTest

@testable import Visit

/// iOS visitors inside in-app browsers (issue 36 item 4, decision 0033 §4): the Deep View
/// gains its in-app part, with Safari (the scheme from iOS 17.5, not in Snapchat or WeChat,
/// else the menu steps) and the alternate domain as the operator allows, and the click is
/// `in_app_page`; a regular browser's plan is unchanged.
final class VisitPlannerInAppIOSTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private func visitor(_ tag: String? = "instagram", ios version: String? = "17.5") -> Visitor {
        Visitor(kind: .ios(osVersion: version), inAppBrowser: tag)
    }

    private func plan(
        _ visitor: Visitor, alternate: String? = nil, allowed: Set<InAppEscape>? = nil, domainDeepView: Bool = true
    ) -> VisitPlan {
        VisitPlanner.plan(
            link: F.link(), app: F.app(), domain: F.domain(deepView: domainDeepView, alternateHostname: alternate),
            visitor: visitor, inAppEscapes: allowed)
    }

    private func offer(_ plan: VisitPlan, file: StaticString = #filePath, line: UInt = #line) -> InAppDeepView? {
        guard case .deepView(_, _, let inApp) = plan.answer else {
            XCTFail("no Deep View: \(plan.answer)", file: file, line: line)
            return nil
        }
        return inApp
    }

    func testAnInAppVisitorGetsTheDeepViewWithItsPartAndAnInAppPageClick() {
        XCTAssertEqual(
            plan(visitor()),
            VisitPlan(
                answer: .deepView(
                    pageFallback: .iosFallback, writeFallback: .iosFallback,
                    inApp: InAppDeepView(safari: .scheme, alternateDomain: false)),
                click: PlannedClick(kind: .inAppPage, platform: .ios), handoff: .ios))
    }

    func testSafariIsTheSchemeFromIOS17Point5AndTheMenuStepsBefore() {
        XCTAssertEqual(offer(plan(visitor(ios: "17.5")))?.safari, .scheme)
        XCTAssertEqual(offer(plan(visitor(ios: "18.1")))?.safari, .scheme)
        XCTAssertEqual(offer(plan(visitor(ios: "17.4")))?.safari, .menuSteps)
        XCTAssertEqual(offer(plan(visitor(ios: "17.4.1")))?.safari, .menuSteps)
        XCTAssertEqual(offer(plan(visitor(ios: nil)))?.safari, .menuSteps)
    }

    func testSnapchatAndWeChatGetTheMenuStepsWhateverTheVersion() {
        for tag in ["snapchat", "wechat"] {
            XCTAssertEqual(offer(plan(visitor(tag, ios: "18.1")))?.safari, .menuSteps, tag)
        }
        for tag in ["facebook", "tiktok", "line", "webview"] {
            XCTAssertEqual(offer(plan(visitor(tag, ios: "18.1")))?.safari, .scheme, tag)
        }
    }

    func testTheAlternateDomainOnlyWhenTheDomainHasOne() {
        XCTAssertEqual(offer(plan(visitor()))?.alternateDomain, false)
        XCTAssertEqual(offer(plan(visitor(), alternate: "app.example.com"))?.alternateDomain, true)
    }

    func testEachEscapeFollowsTheOperatorsSwitches() {
        let alternate = "app.example.com"
        XCTAssertEqual(
            offer(plan(visitor(), alternate: alternate, allowed: [])),
            InAppDeepView(safari: .off, alternateDomain: false))
        XCTAssertEqual(
            offer(plan(visitor(), alternate: alternate, allowed: [.safari])),
            InAppDeepView(safari: .scheme, alternateDomain: false))
        XCTAssertEqual(
            offer(plan(visitor(ios: "17.4"), alternate: alternate, allowed: [.safari])),
            InAppDeepView(safari: .menuSteps, alternateDomain: false))
        XCTAssertEqual(
            offer(plan(visitor(), alternate: alternate, allowed: [.alternateDomain, .playIntent])),
            InAppDeepView(safari: .off, alternateDomain: true))
        // With every escape off the page still says where the visitor is, and Continue works.
        XCTAssertEqual(plan(visitor(), allowed: []).click?.kind, .inAppPage)
    }

    func testARegularBrowserKeepsTodaysDeepView() {
        let regular = plan(Visitor(kind: .ios(osVersion: "18.1")), alternate: "app.example.com")
        XCTAssertEqual(
            regular,
            VisitPlan(
                answer: .deepView(pageFallback: .iosFallback, writeFallback: .iosFallback),
                click: PlannedClick(kind: .deepView, platform: .ios), handoff: .ios))
        XCTAssertNil(offer(regular))
    }

    func testWithoutTheDeepViewTheInAppVisitorGoesWhereEveryoneGoes() {
        XCTAssertEqual(plan(visitor(), domainDeepView: false), plan(F.iphone, domainDeepView: false))
        XCTAssertEqual(plan(visitor(), domainDeepView: false).click?.kind, .iosFallback)
    }

    func testALinkWithOptionsPassesTheSwitchesOn() {
        var link = F.link()
        link.options = LinkOptions(utm: UTMParameters(source: "s"))
        var random = SeededGenerator(seed: 1)
        let planned = VisitPlanner.plan(
            link: link, app: F.app(), domain: F.domain(alternateHostname: "app.example.com"), visitor: visitor(),
            facts: VisitFacts(now: 0, inAppEscapes: [.alternateDomain]), random: &random)
        XCTAssertEqual(offer(planned), InAppDeepView(safari: .off, alternateDomain: true))
    }

    func testEveryTagButWebviewHasADisplayName() {
        for (_, tag) in UserAgentPatterns.inAppBrowsers where tag != "webview" {
            XCTAssertNotNil(InAppBrowserName.displayName(tag: tag), tag)
        }
        XCTAssertNil(InAppBrowserName.displayName(tag: "webview"))
        XCTAssertEqual(InAppBrowserName.displayName(tag: "twitter"), "X")
        XCTAssertTrue(InAppBrowserName.hasEllipsisMenu(tag: "instagram"))
        XCTAssertFalse(InAppBrowserName.hasEllipsisMenu(tag: "snapchat"))
    }

    func testTheSafariMarkerJoinsTheQuery() {
        XCTAssertEqual(SafariEscape.marked("https://go.example.com/k"), "https://go.example.com/k?bq_ia=1")
        XCTAssertEqual(SafariEscape.marked("https://go.example.com/k?a=1"), "https://go.example.com/k?a=1&bq_ia=1")
        XCTAssertTrue(SafariEscape.isOffered(osVersion: "17.5", app: "instagram"))
        XCTAssertFalse(SafariEscape.isOffered(osVersion: "17.4", app: "instagram"))
        XCTAssertFalse(SafariEscape.isOffered(osVersion: "18.1", app: "wechat"))
    }
}
