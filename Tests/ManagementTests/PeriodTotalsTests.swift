import Core
import Model
import Store
import XCTest

@testable import Management

/// The pure parts of the analytics pages (issue 25 items 6 and 7): the change against the
/// previous period, the funnel's rates, the totals of a period and of the one before it
/// from one read of 2N days.
final class PeriodTotalsTests: XCTestCase {
    func testTheChangeAgainstThePreviousPeriod() {
        XCTAssertEqual(PeriodChange(current: 0, previous: 0), .none)
        XCTAssertEqual(PeriodChange(current: 5, previous: 0), .new)
        XCTAssertEqual(PeriodChange(current: 0, previous: 5), .percent(-100))
        XCTAssertEqual(PeriodChange(current: 112, previous: 100), .percent(12))
        XCTAssertEqual(PeriodChange(current: 60, previous: 100), .percent(-40))
        XCTAssertEqual(PeriodChange(current: 1_001, previous: 1_000), .percent(0), "under one percent")
        XCTAssertEqual(PeriodChange(current: 300, previous: 100), .percent(200))
        XCTAssertEqual(PeriodChange(current: Int128(4999), previous: Int128(2000)), .percent(149))
        XCTAssertEqual(PeriodChange.percent(12).label, "+12 %")
        XCTAssertEqual(PeriodChange.percent(-40).label, "−40 %")
        XCTAssertEqual(PeriodChange.percent(0).label, "0 %")
        XCTAssertEqual(PeriodChange.new.label, "new")
        XCTAssertEqual(PeriodChange.none.label, "–")
    }

    func testTheFunnelsRates() {
        let f = ConversionFunnel(clicks: 200, leads: 9, sales: 3)
        XCTAssertEqual(f.leadRate, 4.5)
        XCTAssertEqual(f.saleRate, 33.3)
        XCTAssertNil(ConversionFunnel(clicks: 0, leads: 2, sales: 0).leadRate)
        XCTAssertNil(ConversionFunnel(clicks: 5, leads: 0, sales: 0).saleRate)
        XCTAssertEqual(ConversionFunnel(clicks: 1, leads: 1, sales: 3).saleRate, 300, "several sales per lead")
    }

    /// Seven days and the seven before, from one set of counts: each day in its period,
    /// installs are first opens with a match, revenue by currency, the funnel without bots.
    func testAReportSplitsTheTwoPeriodsOfOneRead() {
        let first: Int64 = 100
        let counts = LinkAnalytics(
            clicks: [
                .init(day: 93, platform: .ios, kind: .deepView, count: 4),
                .init(day: 99, platform: .android, kind: .androidRedirect, count: 1),
                .init(day: 100, platform: .android, kind: .androidRedirect, count: 10),
                .init(day: 106, platform: .bot, kind: .previewBot, count: 2),
                .init(day: 92, platform: .ios, kind: .deepView, count: 50),
            ],
            opens: [
                .init(day: 101, matchedBy: .exactHandoff, firstOpen: true, count: 3),
                .init(day: 101, matchedBy: .exactHandoff, firstOpen: false, count: 7),
                .init(day: 101, matchedBy: .none, firstOpen: true, count: 5),
                .init(day: 95, matchedBy: .probabilistic, firstOpen: true, count: 1),
            ],
            conversions: [
                .init(day: 94, type: .sale, currency: "usd", count: 1, amount: 500),
                .init(day: 100, type: .lead, currency: nil, count: 4, amount: 0),
                .init(day: 102, type: .sale, currency: "eur", count: 2, amount: 2500),
                .init(day: 106, type: .sale, currency: "usd", count: 1, amount: 999),
            ])
        let report = LinkAnalyticsReport(firstDay: first, days: 7, counts: counts)
        XCTAssertEqual(
            report.totals,
            PeriodTotals(clicks: 12, installs: 3, leads: 4, sales: 3, revenue: ["eur": 2500, "usd": 999]))
        XCTAssertEqual(report.previous, PeriodTotals(clicks: 5, installs: 1, leads: 0, sales: 1, revenue: ["usd": 500]))
        XCTAssertEqual(report.funnel, ConversionFunnel(clicks: 10, leads: 4, sales: 3))
        XCTAssertEqual(report.leadsByDay, [4, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(report.salesByDay, [0, 0, 2, 0, 0, 0, 1])
        XCTAssertEqual(report.revenueByDay[2], ["eur": 2500])
        XCTAssertEqual(report.currencies, ["eur", "usd"])
        XCTAssertEqual(report.clickTotal, 12, "the days before are not in the period's numbers")
        XCTAssertEqual(PeriodTotals.currencies(report.totals, report.previous), ["eur", "usd"])
    }

    /// Sums of the largest amounts (2^53 - 1 each, decision 0029): a period's revenue past
    /// 2^63 - 1 is exact, its change against one minor unit before is clamped, not trapped,
    /// and the JSON has every digit.
    func testTotalsAndChangesPastSixtyFourBits() {
        let largest = Int128(9_007_199_254_740_991)
        let half: Int128 = 513
        let counts = LinkAnalytics(
            clicks: [], opens: [],
            conversions: [
                .init(day: 45, type: .sale, currency: "vnd", count: 1, amount: 1),
                .init(day: 99, type: .sale, currency: "vnd", count: 513, amount: half * largest),
                .init(day: 100, type: .sale, currency: "vnd", count: 513, amount: half * largest),
                // What an older binary's row can read as at most: two 64-bit columns at their largest.
                .init(
                    day: 100, type: .sale, currency: "kwd", count: 1,
                    amount: Int128(Int64.max) * 1_000_000_000_000_000_001),
            ])
        let report = LinkAnalyticsReport(firstDay: 71, days: 30, counts: counts)
        XCTAssertEqual(report.totals.revenue["vnd"], 2 * half * largest)
        XCTAssertGreaterThan(report.totals.revenue["vnd"]!, Int128(Int64.max))
        XCTAssertEqual(
            report.revenueByDay[29], ["vnd": half * largest, "kwd": Int128(Int64.max) * 1_000_000_000_000_000_001])
        XCTAssertEqual(report.previous.revenue, ["vnd": 1])
        XCTAssertEqual(
            PeriodChange(current: report.totals.revenue["vnd"]!, previous: 1), .percent(.max), "about 10^21 %")
        XCTAssertEqual(PeriodChange(current: Int128(Int64.max) * 1_000, previous: 1), .percent(.max))
        XCTAssertEqual(PeriodChange(current: 0, previous: Int128(Int64.max) * 1_000), .percent(-100))
        XCTAssertEqual(PeriodChange.percent(.min).label, "−9223372036854775808 %", "no trap on the most negative")
        let json = LinkAnalyticsJSON.revenue(report.totals.revenue).jsonString
        XCTAssertEqual(
            json, #"{"kwd":9223372036854775816223372036854775807,"vnd":9241386435364256766}"#)
    }
}
