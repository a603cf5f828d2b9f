import Model
import XCTest

@testable import Visit

/// What holds for every plan, over every combination of visitor kind, link (web-only or
/// mobile, its Deep View switch), app (gone, disabled, with or without each platform,
/// store, fallback URL and probabilistic switch) and the domain's Deep View switch.
final class VisitPlanInvariantTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private struct Case {
        var visitor: Visitor
        var link: Link
        var app: MobileApp?
        var domain: Domain
        var plan: VisitPlan { VisitPlanner.plan(link: link, app: app, domain: domain, visitor: visitor) }
    }

    private var cases: [Case] {
        var iosPlatforms: [IOSPlatform?] = [nil]
        for store in [nil, "1234567890"] as [String?] {
            for flight in [nil, F.testFlightURL] as [String?] {
                for fallback in [nil, F.fallbackURL] as [String?] {
                    for probabilistic in [false, true] {
                        iosPlatforms.append(
                            F.ios(
                                appStoreId: store, testFlightUrl: flight, fallbackUrl: fallback,
                                probabilistic: probabilistic))
                    }
                }
            }
        }
        var apps: [MobileApp?] = [nil]
        for enabled in [true, false] {
            for ios in iosPlatforms {
                for android in [nil, F.android(), F.android(appLinks: true)] as [AndroidPlatform?] {
                    apps.append(F.app(enabled: enabled, ios: ios, android: android))
                }
            }
        }
        let links = [F.link(mobile: false), F.link(deepView: false), F.link(deepView: true)]
        var all: [Case] = []
        for visitor in [F.head, F.bot, F.desktop, F.android, F.androidInApp, F.iphone, F.iphoneInApp] {
            for link in links {
                for app in apps {
                    for domain in [F.domain(deepView: false), F.domain(deepView: true)] {
                        all.append(Case(visitor: visitor, link: link, app: app, domain: domain))
                    }
                }
            }
        }
        return all
    }

    private let inAppMenuSteps =
        "inApp: Optional(Visit.InAppDeepView(safari: Visit.InAppDeepView.Safari.menuSteps, alternateDomain: false)))"

    func testTheMatrixCoversEveryAnswer() {
        var seen = Set<String>()
        for c in cases { seen.insert("\(c.plan.answer)") }
        XCTAssertEqual(
            seen,
            [
                "redirect(Visit.VisitTarget.web)", "redirect(Visit.VisitTarget.iosFallback)",
                "redirect(Visit.VisitTarget.iosStore)", "preview(pageFallback: Visit.VisitTarget.web)",
                "playStore(writeFallback: Visit.VisitTarget.playStore)",
                "playIntent(writeFallback: Visit.VisitTarget.playStore)",
                "appIntent(writeFallback: Visit.VisitTarget.playStore)",
                "deepView(pageFallback: Visit.VisitTarget.web, writeFallback: Visit.VisitTarget.iosStore, inApp: nil)",
                "deepView(pageFallback: Visit.VisitTarget.iosFallback, writeFallback: Visit.VisitTarget.iosFallback, "
                    + "inApp: nil)",
                "deepView(pageFallback: Visit.VisitTarget.web, writeFallback: Visit.VisitTarget.iosStore, "
                    + inAppMenuSteps,
                "deepView(pageFallback: Visit.VisitTarget.iosFallback, writeFallback: Visit.VisitTarget.iosFallback, "
                    + inAppMenuSteps,
            ])
    }

    func testOnlyPeopleMakeClicksOnTheirOwnPlatform() {
        for c in cases {
            XCTAssertEqual(c.plan.click != nil, c.visitor.recordsClick, "\(c)")
            if let click = c.plan.click { XCTAssertEqual(click.platform, c.visitor.platform, "\(c)") }
        }
    }

    func testAHandoffComesWithItsTokenBearingAnswerAndNothingElse() {
        for c in cases {
            let plan = c.plan
            switch plan.answer {
            case .playStore:
                XCTAssertEqual(plan.handoff, .android, "\(c)")
                XCTAssertEqual(plan.click?.kind, .androidRedirect, "\(c)")
                XCTAssertNil(c.visitor.inAppBrowser, "\(c)")
            case .playIntent:
                XCTAssertEqual(plan.handoff, .android, "\(c)")
                XCTAssertEqual(plan.click?.kind, .playIntent, "\(c)")
                XCTAssertNotNil(c.visitor.inAppBrowser, "\(c)")
                XCTAssertEqual(c.app?.android?.sha256CertFingerprints, [], "\(c)")
            case .appIntent:
                XCTAssertEqual(plan.handoff, .android, "\(c)")
                XCTAssertEqual(plan.click?.kind, .appIntent, "\(c)")
                XCTAssertNotNil(c.visitor.inAppBrowser, "\(c)")
                XCTAssertNotEqual(c.app?.android?.sha256CertFingerprints, [], "\(c)")
            case .deepView(_, _, let inApp):
                XCTAssertEqual(plan.handoff, .ios, "\(c)")
                // The in-app part, and its click kind, exactly for the in-app visitors.
                XCTAssertEqual(inApp != nil, c.visitor.inAppBrowser != nil, "\(c)")
                XCTAssertEqual(plan.click?.kind, inApp == nil ? .deepView : .inAppPage, "\(c)")
            case .redirect, .preview, .expired:
                XCTAssertNil(plan.handoff, "\(c)")
            }
        }
    }

    func testAHandoffIsMadeOnlyForAnEnabledAppOfAMobileLink() {
        for c in cases where c.plan.handoff != nil {
            XCTAssertNotNil(c.link.mobile, "\(c)")
            XCTAssertEqual(c.app?.enabled, true, "\(c)")
            XCTAssertTrue(c.app?.platform(c.plan.handoff!) == true, "\(c)")
        }
    }

    func testTheSourceHashIsKeptOnlyForIOSClicksOfAppsThatAllowIt() {
        for c in cases {
            let allowed = c.app?.ios?.probabilisticFallback == true && c.visitor.platform == .ios
            XCTAssertEqual(c.plan.click?.sourceHash ?? false, allowed, "\(c)")
        }
    }

    func testEveryTargetOfAPlanExistsForItsApp() {
        for c in cases {
            var targets: [VisitTarget] = []
            switch c.plan.answer {
            case .redirect(let t): targets = [t]
            case .preview(let page): targets = [page]
            case .playStore(let write), .playIntent(let write), .appIntent(let write): targets = [write]
            case .deepView(let page, let write, _): targets = [page, write]
            case .expired: targets = []
            }
            for target in targets {
                switch target {
                case .web: break
                case .iosFallback: XCTAssertNotNil(c.app?.ios?.fallbackUrl, "\(c)")
                case .iosStore: XCTAssertNotNil(c.app?.ios?.storeUrl, "\(c)")
                case .playStore: XCTAssertNotNil(c.app?.android, "\(c)")
                }
            }
        }
    }
}
