import Model
import XCTest

@testable import Visit

/// The plan of a link with options (decision 0032): expiry first, then the first rule
/// (with `skipApp`), then the variant of a web visit, else `url`.
final class VisitPlannerOptionsTests: XCTestCase {
    typealias F = VisitPlanFixtures

    static let expiresAt: Int64 = 1_800_000_000_000
    static let variants = [
        LinkVariant(url: "https://a.test/", weight: 50), LinkVariant(url: "https://b.test/", weight: 50),
    ]

    private func link(_ options: LinkOptions, mobile: Bool = true, trackConversions: Bool? = nil) -> Link {
        var link = F.link(mobile: mobile, trackConversions: trackConversions)
        link.options = options
        return link
    }

    private func plan(
        _ visitor: Visitor, _ link: Link, app: MobileApp? = F.app(), facts: VisitFacts = VisitFacts(now: 0),
        seed: UInt64 = 1
    ) -> VisitPlan {
        var random = SeededGenerator(seed: seed)
        return VisitPlanner.plan(
            link: link, app: app, domain: F.domain(), visitor: visitor, facts: facts, random: &random)
    }

    // MARK: No options

    /// A generator that fails the test if the plan draws from it.
    private struct NoDraw: RandomNumberGenerator {
        mutating func next() -> UInt64 {
            XCTFail("a link without options drew a random value")
            return 0
        }
    }

    func testALinkWithoutOptionsPlansAsBefore() {
        for visitor in [F.head, F.bot, F.desktop, F.android, F.iphone] {
            var random = NoDraw()
            let planned = VisitPlanner.plan(
                link: F.link(), app: F.app(), domain: F.domain(), visitor: visitor,
                facts: VisitFacts(now: .max, acceptLanguage: "fr", country: "FR", cookie: "bq_v=1.00000000"),
                random: &random)
            XCTAssertEqual(planned, F.plan(visitor), "\(visitor)")
            XCTAssertEqual(planned.web, .link)
        }
    }

    // MARK: Expiry

    func testAnExpiredLinkAnswersExpiredToEveryoneAndRecordsNothing() {
        let expiring = link(
            LinkOptions(
                rules: [LinkRule(conditions: RuleConditions(), url: "https://r.test/")],
                expiresAt: Self.expiresAt))
        for visitor in [F.head, F.bot, F.desktop, F.android, F.iphone] {
            XCTAssertEqual(plan(visitor, expiring, facts: VisitFacts(now: Self.expiresAt)), VisitPlan(answer: .expired))
            XCTAssertNotEqual(plan(visitor, expiring, facts: VisitFacts(now: Self.expiresAt - 1)).answer, .expired)
        }
    }

    // MARK: Rules

    func testTheFirstMatchingRuleChoosesTheWebDestination() {
        let routed = link(
            LinkOptions(rules: [
                LinkRule(conditions: RuleConditions(countries: ["DE"]), url: "https://de.test/"),
                LinkRule(conditions: RuleConditions(languages: ["pt"]), url: "https://pt.test/"),
                LinkRule(conditions: RuleConditions(devices: [.tablet]), url: "https://tablet.test/"),
            ]), mobile: false)
        let desktop = plan(
            F.desktop, routed, facts: VisitFacts(now: 0, acceptLanguage: "pt-BR,de;q=0.9", country: "DE"))
        XCTAssertEqual(desktop.web, .rule(0))
        XCTAssertEqual(desktop.answer, .redirect(.web))
        XCTAssertEqual(desktop.click, PlannedClick(kind: .desktop, platform: .desktop))
        XCTAssertEqual(
            plan(F.desktop, routed, facts: VisitFacts(now: 0, acceptLanguage: "pt-BR", country: "US")).web, .rule(1))
        let tablet = Visitor(kind: .android, device: .tablet)
        XCTAssertEqual(plan(tablet, routed, facts: VisitFacts(now: 0)).web, .rule(2))
        XCTAssertEqual(plan(F.android, routed, facts: VisitFacts(now: 0)).web, .link)
        XCTAssertEqual(WebChoice.rule(1).url(in: routed), "https://pt.test/")
    }

    func testARuleWithoutSkipAppLeavesAnAppVisitorToTheStore() {
        let routed = link(
            LinkOptions(rules: [LinkRule(conditions: RuleConditions(countries: ["CN"]), url: "https://cn.test/")]))
        let android = plan(F.android, routed, facts: VisitFacts(now: 0, country: "CN"))
        XCTAssertEqual(android.answer, .playStore(writeFallback: .playStore))
        XCTAssertEqual(android.handoff, .android)
        XCTAssertEqual(android.web, .rule(0))
    }

    func testSkipAppSendsMatchingMobileVisitorsOfAnAppLinkToTheRule() {
        let routed = link(
            LinkOptions(rules: [
                LinkRule(conditions: RuleConditions(countries: ["CN"]), url: "https://cn.test/", skipApp: true)
            ]))
        let china = VisitFacts(now: 0, country: "CN")
        XCTAssertEqual(
            plan(F.android, routed, facts: china),
            VisitPlan(answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .android), web: .rule(0)))
        XCTAssertEqual(
            plan(F.iphone, routed, app: F.app(ios: F.ios(probabilistic: true)), facts: china),
            VisitPlan(
                answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .ios, sourceHash: true),
                web: .rule(0)))
        // Elsewhere the store as usual; desktop and bots get only the destination.
        XCTAssertEqual(plan(F.android, routed, facts: VisitFacts(now: 0, country: "FR")).handoff, .android)
        XCTAssertEqual(plan(F.desktop, routed, facts: china).web, .rule(0))
        XCTAssertEqual(
            plan(F.bot, routed, facts: china), VisitPlan(answer: .preview(pageFallback: .web), web: .rule(0)))
    }

    func testSkipAppCarriesTheClickIdWhenTheLinkTracksConversions() {
        let routed = link(
            LinkOptions(rules: [LinkRule(conditions: RuleConditions(), url: "https://all.test/", skipApp: true)]),
            trackConversions: true)
        XCTAssertTrue(plan(F.android, routed).carriesClickId)
        XCTAssertEqual(plan(F.android, routed).handoff, nil)
    }

    // MARK: Variants

    func testAWebVisitDrawsAVariantAndSaysSo() {
        let tested = link(LinkOptions(variants: Self.variants), mobile: false)
        var seen: Set<Int> = []
        for seed: UInt64 in 1...40 {
            let p = plan(F.desktop, tested, seed: seed)
            XCTAssertTrue(p.drewVariant)
            XCTAssertEqual(p.answer, .redirect(.web))
            if let arm = p.variant { seen.insert(arm) }
        }
        XCTAssertEqual(seen, [0, 1])
    }

    func testTheCookiesArmIsKept() {
        let tested = link(LinkOptions(variants: Self.variants), mobile: false)
        let fp = VariantDraw.fingerprint(Self.variants)
        for seed: UInt64 in 1...20 {
            let p = plan(F.desktop, tested, facts: VisitFacts(now: 0, cookie: "bq_v=1.\(fp)"[...]), seed: seed)
            XCTAssertEqual(p.web, .variant(1))
            XCTAssertFalse(p.drewVariant)
        }
        // Another version of the test: drawn afresh.
        XCTAssertTrue(plan(F.desktop, tested, facts: VisitFacts(now: 0, cookie: "bq_v=1.00000000")).drewVariant)
    }

    func testVariantsSplitOnlyWebVisitsNoRuleTook() {
        let tested = link(
            LinkOptions(
                rules: [LinkRule(conditions: RuleConditions(countries: ["FR"]), url: "https://fr.test/")],
                variants: Self.variants))
        XCTAssertEqual(plan(F.desktop, tested, facts: VisitFacts(now: 0, country: "FR")).web, .rule(0))
        XCTAssertNotNil(plan(F.desktop, tested).variant)
        XCTAssertNotNil(plan(F.android, tested, app: nil).variant, "an Android visitor sent to the web")
        XCTAssertEqual(plan(F.android, tested).web, .link, "the store is no web visit")
        XCTAssertEqual(plan(F.iphone, tested).web, .link)
        XCTAssertEqual(plan(F.head, tested), VisitPlan(answer: .redirect(.web)))
        XCTAssertEqual(plan(F.bot, tested), VisitPlan(answer: .preview(pageFallback: .web)))
    }

    func testUTMAndPassQueryAloneChangeNoDecision() {
        let tagged = link(LinkOptions(utm: UTMParameters(source: "s"), passQuery: true, expiresAt: Self.expiresAt))
        for visitor in [F.head, F.bot, F.desktop, F.android, F.iphone] {
            XCTAssertEqual(plan(visitor, tagged), F.plan(visitor), "\(visitor)")
        }
    }
}
