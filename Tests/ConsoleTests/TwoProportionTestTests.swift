import XCTest

@testable import Console
@testable import Management

/// The A/B test's statistics against values computed independently (Python's
/// `statistics.NormalDist`: z = (p2 - p1) / sqrt(p(1-p)(1/n1 + 1/n2)), p = 2(1 - Φ(|z|))).
final class TwoProportionTestTests: XCTestCase {
    func testZAndTheTwoSidedPValueMatchIndependentlyComputedValues() {
        let cases: [(Int, Int, Int, Int, Double, Double)] = [
            (200, 1000, 250, 1000, 2.677397763008329, 0.007419649261025674),
            (45, 500, 60, 500, 1.547337646055907, 0.1217818484258566),
            (10, 100, 20, 100, 1.9802950859533488, 0.04767038065616136),
            (120, 1000, 90, 1000, -2.1882658846227234, 0.028650240398448545),
            (30, 1200, 52, 1180, 2.5499911762362752, 0.010772564553978459),
        ]
        for (x1, n1, x2, n2, z, p) in cases {
            let test = TwoProportionTest(controlConversions: x1, controlTrials: n1, conversions: x2, trials: n2)
            XCTAssertEqual(test.z, z, accuracy: 1e-9, "\(x1)/\(n1) vs \(x2)/\(n2)")
            XCTAssertEqual(test.pValue, p, accuracy: 1e-9, "\(x1)/\(n1) vs \(x2)/\(n2)")
            XCTAssertEqual(test.confidence, 1 - p, accuracy: 1e-9)
        }
    }

    func testEqualRatesAndDegenerateArmsSayNothing() {
        let same = TwoProportionTest(controlConversions: 50, controlTrials: 1000, conversions: 100, trials: 2000)
        XCTAssertEqual(same.z, 0, accuracy: 1e-12)
        XCTAssertEqual(same.pValue, 1, accuracy: 1e-12)
        for (x1, n1, x2, n2) in [(0, 0, 5, 100), (5, 100, 0, 0), (0, 100, 0, 100), (100, 100, 100, 100)] {
            let test = TwoProportionTest(controlConversions: x1, controlTrials: n1, conversions: x2, trials: n2)
            XCTAssertEqual(test.z, 0)
            XCTAssertEqual(test.pValue, 1)
        }
        // More conversions than trials are capped at the trials: 100 % against 50 %.
        let capped = TwoProportionTest(controlConversions: 50, controlTrials: 100, conversions: 300, trials: 100)
        let full = TwoProportionTest(controlConversions: 50, controlTrials: 100, conversions: 100, trials: 100)
        XCTAssertEqual(capped, full)
    }

    func testTheVerdictWaitsForEnoughDataThenNamesTheBetterArm() {
        typealias V = ABTestSummary.Verdict
        // 99 clicks in an arm: not enough, whatever the rates.
        XCTAssertEqual(
            ABTestSummary.verdict(controlConversions: 10, controlClicks: 99, conversions: 90, clicks: 1000),
            .notEnoughData)
        // 1,000 clicks each but 4 expected conversions at the pooled rate (8 of 2,000): not enough.
        XCTAssertEqual(
            ABTestSummary.verdict(controlConversions: 2, controlClicks: 1000, conversions: 6, clicks: 1000),
            .notEnoughData)
        // 10 of 100 against 20 of 100: p = 0.0477, B better at 95 %.
        guard
            case .better(let c) = ABTestSummary.verdict(
                controlConversions: 10, controlClicks: 100, conversions: 20, clicks: 100)
        else { return XCTFail("B should convert better") }
        XCTAssertEqual(ABTestSummary.percent(c), "95\u{A0}%")
        guard
            case .worse(let w) = ABTestSummary.verdict(
                controlConversions: 120, controlClicks: 1000, conversions: 90, clicks: 1000)
        else { return XCTFail("B should convert worse") }
        XCTAssertEqual(ABTestSummary.percent(w), "97\u{A0}%")
        guard
            case .noClearDifference(let n) = ABTestSummary.verdict(
                controlConversions: 45, controlClicks: 500, conversions: 60, clicks: 500)
        else { return XCTFail("no clear difference") }
        XCTAssertEqual(ABTestSummary.percent(n), "87\u{A0}%")
        XCTAssertEqual(ABTestSummary.percent(0.9926), "99.2\u{A0}%")
        XCTAssertEqual(ABTestSummary.percent(0.99999), "over 99.9\u{A0}%")
        XCTAssertEqual(ABTestSummary.percent(0.9499), "94\u{A0}%", "rounded down, never surer than it is")
    }

    func testArmsAddUpTheirTotalsAndConvertByTheLargerOfLeadsAndSalesCappedAtClicks() {
        let summary = ABTestSummary(
            [
                VariantTotals(arm: 1, clicks: 100, leads: 3, sales: 7, revenue: ["usd": 500]),
                VariantTotals(arm: 0, clicks: 10, leads: 30, sales: 1),
                VariantTotals(arm: 1, clicks: 100, leads: 5, sales: 0, revenue: ["usd": 250, "eur": 100]),
            ], armCount: 3)
        XCTAssertEqual(summary.arms.count, 3)
        XCTAssertEqual(summary.arms[0].conversions, 10, "30 leads of 10 clicks: capped at 10")
        XCTAssertEqual(summary.arms[0].verdict, .control)
        XCTAssertEqual(summary.arms[1].clicks, 200)
        XCTAssertEqual(summary.arms[1].conversions, 8, "8 leads against 7 sales")
        XCTAssertEqual(summary.arms[1].revenue, ["usd": 750, "eur": 100])
        XCTAssertEqual(summary.arms[1].verdict, .notEnoughData)
        XCTAssertEqual(summary.arms[2].clicks, 0)
        XCTAssertNil(summary.arms[2].rate)
        // An arm in the totals beyond the link's variants (an earlier test) is shown too.
        XCTAssertEqual(ABTestSummary([VariantTotals(arm: 3, clicks: 1)], armCount: 2).arms.count, 4)
    }
}
