import Model
import XCTest

@testable import Visit

/// Rule matching (decision 0032): every condition kind, all of a rule's lists, any value
/// of a list, the first rule that holds.
final class RuleMatcherTests: XCTestCase {
    private let frenchIPhone = RuleMatcher.Facts(platform: .ios, device: .phone, language: "fr-CA", country: "CA")

    private func rule(_ c: RuleConditions, _ n: Int = 0) -> LinkRule {
        LinkRule(conditions: c, url: "https://r\(n).test/")
    }

    func testEachConditionKind() {
        let f = frenchIPhone
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(countries: ["US", "CA"]), f))
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(countries: ["US"]), f))
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(platforms: [.android, .ios]), f))
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(platforms: [.desktop]), f))
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(languages: ["de", "fr"]), f))
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(languages: ["fr-FR"]), f))
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(devices: [.phone]), f))
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(devices: [.tablet, .desktop]), f))
    }

    func testEveryListMustHold() {
        XCTAssertTrue(
            RuleMatcher.holds(RuleConditions(countries: ["CA"], platforms: [.ios], languages: ["fr"]), frenchIPhone))
        XCTAssertFalse(
            RuleMatcher.holds(RuleConditions(countries: ["CA"], platforms: [.ios], devices: [.tablet]), frenchIPhone))
    }

    func testNoCountryOrLanguageOrPlatformMatchesNoSuchRule() {
        let unknown = RuleMatcher.Facts(platform: nil, device: .desktop)
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(countries: ["US"]), unknown))
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(languages: ["en"]), unknown))
        XCTAssertFalse(RuleMatcher.holds(RuleConditions(platforms: RulePlatform.allCases), unknown))
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(devices: [.desktop]), unknown))
    }

    func testAnEmptyRuleMatchesEveryone() {
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(), frenchIPhone))
        XCTAssertTrue(RuleMatcher.holds(RuleConditions(), RuleMatcher.Facts(platform: nil, device: .desktop)))
    }

    func testTheFirstRuleThatHoldsWins() {
        let rules = [
            rule(RuleConditions(countries: ["US"]), 0), rule(RuleConditions(languages: ["fr"]), 1),
            rule(RuleConditions(platforms: [.ios]), 2), rule(RuleConditions(), 3),
        ]
        XCTAssertEqual(RuleMatcher.firstMatch(rules, frenchIPhone), 1)
        XCTAssertEqual(RuleMatcher.firstMatch(rules, RuleMatcher.Facts(platform: .desktop, device: .desktop)), 3)
        XCTAssertNil(
            RuleMatcher.firstMatch(Array(rules.prefix(3)), RuleMatcher.Facts(platform: .desktop, device: .desktop)))
        XCTAssertNil(RuleMatcher.firstMatch([], frenchIPhone))
    }

    func testWhatTheRulesNeedLookedUp() {
        XCTAssertTrue(RuleMatcher.namesCountries([rule(RuleConditions()), rule(RuleConditions(countries: ["FR"]))]))
        XCTAssertFalse(RuleMatcher.namesCountries([rule(RuleConditions(languages: ["fr"]))]))
        XCTAssertTrue(RuleMatcher.namesLanguages([rule(RuleConditions(languages: ["fr"]))]))
        XCTAssertFalse(RuleMatcher.namesLanguages([rule(RuleConditions(countries: ["FR"]))]))
    }
}
