import XCTest

@testable import Console

final class BarChartTests: XCTestCase {
    func testTheScaleIsFourStepsOfOneTwoOrFiveTimesAPowerOfTen() {
        XCTAssertEqual(
            [0, 1, 2, 3, 4, 6, 11, 19, 21, 99, 101, 4_999].map { BarChart.niceStep(atLeast: $0) },
            [1, 1, 2, 5, 5, 10, 20, 20, 50, 100, 200, 5_000])
        let chart = BarChart(
            title: "t", labels: ["a", "b"], series: [.init(name: "x", values: [3, 17])], layout: .stacked)
        XCTAssertEqual(chart.scale.maximum, 20)
        XCTAssertEqual(chart.scale.ticks.map(\.value), [0, 5, 10, 15, 20])
        XCTAssertEqual(chart.scale.ticks.first?.y, BarChart.top + BarChart.plotHeight)
        XCTAssertEqual(chart.scale.ticks.last?.y, BarChart.top)
        // Nothing at all still draws an axis from 0 to 4.
        XCTAssertEqual(BarChart(title: "t", labels: ["a"], series: [], layout: .grouped).scale.maximum, 4)
    }

    func testStackedBarsSitOnEachOtherAndScaleToTheTallestTotal() {
        let chart = BarChart(
            title: "t", labels: ["d1", "d2", "d3", "d4"],
            series: [.init(name: "ios", values: [10, 0, 5, 0]), .init(name: "android", values: [10, 4, 0, 0])],
            layout: .stacked)
        XCTAssertEqual(chart.largestValue, 20)
        XCTAssertEqual(chart.scale.maximum, 20)
        let bars = chart.bars
        XCTAssertEqual(bars.count, 4, "zero values draw nothing")
        let full = BarChart.plotHeight
        let baseline = BarChart.top + BarChart.plotHeight
        let first = bars.filter { $0.x == bars[0].x }
        XCTAssertEqual(first.map(\.height), [full / 2, full / 2])
        XCTAssertEqual(first[0].y + first[0].height, baseline)
        XCTAssertEqual(first[1].y + first[1].height, first[0].y, "the second series stands on the first")
        XCTAssertTrue(bars.allSatisfy { $0.x >= BarChart.left && $0.x + $0.width <= BarChart.width - BarChart.right })
        XCTAssertEqual(Set(bars.map(\.width)).count, 1)
    }

    func testGroupedBarsStandSideBySideFromTheBaseline() {
        let chart = BarChart(
            title: "t", labels: ["d1"], series: [.init(name: "a", values: [8]), .init(name: "b", values: [1])],
            layout: .grouped)
        XCTAssertEqual(chart.scale.maximum, 8)
        let bars = chart.bars
        XCTAssertEqual(bars.count, 2)
        XCTAssertEqual(bars[0].y + bars[0].height, bars[1].y + bars[1].height)
        XCTAssertEqual(bars[1].x, bars[0].x + bars[0].width)
        XCTAssertEqual(bars[0].height, BarChart.plotHeight)
        XCTAssertGreaterThanOrEqual(bars[1].height, 1, "a small value stays visible")
    }

    func testAtMostEightDayLabelsUnderTheAxisTheLastAlways() {
        let labels = (1...90).map { "2026-01-\($0)" }
        let chart = BarChart(title: "t", labels: labels, series: [], layout: .stacked)
        let shown = chart.axisLabelIndices
        XCTAssertLessThanOrEqual(shown.count, BarChart.maximumAxisLabels)
        XCTAssertEqual(shown.last, 89)
        XCTAssertEqual(BarChart.shortLabel("2026-11-29"), "11-29")
    }

    func testTheSVGIsAnImageWithItsTitleAndNoInlineStyle() {
        let chart = BarChart(
            title: "Clicks <per> day", labels: ["2026-11-28", "2026-11-29"],
            series: [.init(name: "iOS & co", values: [1, 2])], layout: .stacked)
        let svg = chart.svg(id: "c", description: "d \"q\"").rendered
        XCTAssertTrue(svg.hasPrefix("<svg "))
        XCTAssertTrue(svg.contains("role=\"img\" aria-labelledby=\"c-title c-desc\""))
        XCTAssertTrue(svg.contains("<title id=\"c-title\">Clicks &lt;per&gt; day</title>"))
        XCTAssertTrue(svg.contains("<desc id=\"c-desc\">d &quot;q&quot;</desc>"))
        XCTAssertFalse(svg.contains("style="))
        XCTAssertTrue(svg.contains("<g class=\"s0\">"))
        XCTAssertTrue(chart.legend().rendered.contains("iOS &amp; co"))
    }

    /// Counts no day has (up to `Int.max`) are drawn at the chart's ceiling: the scale's
    /// arithmetic never traps (decision 0029).
    func testValuesUpToIntMaxDrawWithoutTrapping() {
        for layout in [BarChart.Layout.stacked, .grouped] {
            let chart = BarChart(
                title: "t", labels: ["a", "b"],
                series: [.init(name: "x", values: [.max, 3]), .init(name: "y", values: [.max, .max])], layout: layout)
            XCTAssertLessThanOrEqual(chart.largestValue, 2 * BarChart.largestDrawn)
            XCTAssertGreaterThanOrEqual(chart.scale.maximum, chart.largestValue)
            XCTAssertTrue(chart.bars.allSatisfy { $0.height >= 1 && $0.height <= BarChart.plotHeight })
            XCTAssertFalse(chart.svg(id: "c", description: "d").rendered.isEmpty)
        }
    }
}
