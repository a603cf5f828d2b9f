import Templates

/// A bar chart drawn on the server as SVG: one slot per label (a UTC day), the series'
/// bars stacked (parts of one whole: clicks by platform) or side by side (different
/// things: clicks and opens). Integer geometry in a fixed view box that the stylesheet
/// scales; colours by class (`s0`, `s1`, ...: the policy allows no `style=`). The
/// numbers are in a table beside it; the chart is an image of them (`role="img"`).
struct BarChart: Sendable {
    enum Layout: Sendable { case stacked, grouped }

    struct Series: Sendable, Equatable {
        var name: String
        /// One per label.
        var values: [Int]
    }

    /// One drawn bar.
    struct Bar: Sendable, Equatable {
        var series: Int
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The value axis: the top of the scale and the ticks (value, y).
    struct Scale: Sendable, Equatable {
        var maximum: Int
        var ticks: [(value: Int, y: Int)]

        static func == (a: Scale, b: Scale) -> Bool {
            a.maximum == b.maximum && a.ticks.elementsEqual(b.ticks, by: ==)
        }
    }

    static let width = 720
    static let height = 240
    static let left = 52
    static let right = 8
    static let top = 10
    static let bottom = 26
    static let tickCount = 4
    static let plotWidth = width - left - right
    static let plotHeight = height - top - bottom
    /// Labels written under the axis at most.
    static let maximumAxisLabels = 8
    /// The tallest value drawn: a larger one (no day has 10^15 clicks, but a store's
    /// numbers are not the chart's to trust) is drawn as this, so that the scale's
    /// arithmetic (sums of a slot, steps times ten, values times the height) stays far
    /// from `Int.max` and never traps (decision 0029).
    static let largestDrawn = 1_000_000_000_000_000

    /// `value` as drawn: at most `largestDrawn`.
    static func drawn(_ value: Int) -> Int { min(value, largestDrawn) }

    var title: String
    var labels: [String]
    var series: [Series]
    var layout: Layout

    /// The tallest total a slot reaches (stacked) or the tallest bar (grouped).
    var largestValue: Int {
        var largest = 0
        for i in labels.indices {
            switch layout {
            case .stacked:
                largest = max(
                    largest,
                    series.reduce(0) { $0 + ($1.values.indices.contains(i) ? Self.drawn(max(0, $1.values[i])) : 0) })
            case .grouped:
                largest = max(
                    largest, series.map { $0.values.indices.contains(i) ? Self.drawn($0.values[i]) : 0 }.max() ?? 0)
            }
        }
        return largest
    }

    /// `tickCount` equal steps of 1, 2 or 5 times a power of ten, covering the largest value.
    var scale: Scale {
        let step = Self.niceStep(atLeast: (largestValue + Self.tickCount - 1) / Self.tickCount)
        let maximum = step * Self.tickCount
        let ticks = (0...Self.tickCount).map { i in (value: step * i, y: y(of: step * i, maximum: maximum)) }
        return Scale(maximum: maximum, ticks: ticks)
    }

    /// The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `value` (and at least 1).
    static func niceStep(atLeast value: Int) -> Int {
        var power = 1
        while true {
            for factor in [1, 2, 5] where factor * power >= value { return factor * power }
            power *= 10
        }
    }

    /// Width of one label's slot.
    var slotWidth: Int { labels.isEmpty ? Self.plotWidth : max(1, Self.plotWidth / labels.count) }

    private func y(of value: Int, maximum: Int) -> Int {
        Self.top + Self.plotHeight - value * Self.plotHeight / max(maximum, 1)
    }

    /// Every bar with a value above zero; a non-zero value is at least one unit tall.
    var bars: [Bar] {
        let maximum = scale.maximum
        let slot = slotWidth
        let barWidth = max(1, slot * 3 / 4)
        var out: [Bar] = []
        for i in labels.indices {
            let slotX = Self.left + i * slot + (slot - barWidth) / 2
            var base = 0
            for (s, series) in series.enumerated() {
                let value = series.values.indices.contains(i) ? Self.drawn(series.values[i]) : 0
                guard value > 0 else { continue }
                let height = max(1, value * Self.plotHeight / maximum)
                switch layout {
                case .stacked:
                    let bottom = Self.top + Self.plotHeight - base
                    out.append(Bar(series: s, x: slotX, y: bottom - height, width: barWidth, height: height))
                    base += height
                case .grouped:
                    let each = max(1, barWidth / max(1, self.series.count))
                    out.append(
                        Bar(
                            series: s, x: slotX + s * each, y: Self.top + Self.plotHeight - height, width: each,
                            height: height))
                }
            }
        }
        return out
    }

    /// The indices of the labels written under the axis: at most `maximumAxisLabels`,
    /// evenly spaced, the last one always.
    var axisLabelIndices: [Int] {
        guard !labels.isEmpty else { return [] }
        let every = max(1, (labels.count + Self.maximumAxisLabels - 1) / Self.maximumAxisLabels)
        return Array(stride(from: (labels.count - 1) % every, to: labels.count, by: every))
    }

    /// The `<svg>`, its `<title>` and `<desc>` named by `id`.
    func svg(id: String, description: String) -> HTML {
        let scale = self.scale
        let baseline = Self.top + Self.plotHeight
        let grid: [HTML] = scale.ticks.map { tick in
            """
            <line class="chart-grid" x1="\(Self.left)" y1="\(tick.y)" x2="\(Self.width - Self.right)" y2="\(tick.y)"/>\
            <text class="chart-label" x="\(Self.left - 6)" y="\(tick.y + 4)" text-anchor="end">\(tick.value)</text>
            """
        }
        var groups: [HTML] = []
        let bars = self.bars
        for s in series.indices {
            let rects: [HTML] = bars.filter { $0.series == s }.map {
                "<rect x=\"\($0.x)\" y=\"\($0.y)\" width=\"\($0.width)\" height=\"\($0.height)\"/>"
            }
            if !rects.isEmpty { groups.append("<g class=\"s\(s % 6)\">\(rects)</g>") }
        }
        let slot = slotWidth
        let axisLabels: [HTML] = axisLabelIndices.map { i in
            let x = Self.left + i * slot + slot / 2
            return
                "<text class=\"chart-label\" x=\"\(x)\" y=\"\(Self.height - 8)\" text-anchor=\"middle\">\(Self.shortLabel(labels[i]))</text>"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Self.width) \(Self.height)" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" focusable="false"><title id="\(id)-title">\(title)</title>\
            <desc id="\(id)-desc">\(description)</desc>\(grid)\(groups)\
            <line class="chart-axis" x1="\(Self.left)" y1="\(baseline)" x2="\(Self.width - Self.right)" y2="\(baseline)"/>\
            \(axisLabels)</svg>
            """
    }

    /// The legend: one swatch per series, in the chart's colours.
    func legend() -> HTML {
        let items: [HTML] = series.enumerated().map { s, series in
            "<li><span class=\"swatch s\(s % 6)\" aria-hidden=\"true\"></span>\(series.name)</li>"
        }
        return "<ul class=\"legend\">\(items)</ul>"
    }

    /// `2026-11-29` -> `11-29` under the axis (the table has the whole date).
    static func shortLabel(_ label: String) -> String {
        label.utf8.count == 10 && label.hasPrefix("2") ? String(label.dropFirst(5)) : label
    }
}
