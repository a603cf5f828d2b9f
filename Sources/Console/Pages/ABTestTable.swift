import Management
import Model
import Templates

/// The link page's A/B test: a row per arm (URL, weight, clicks, leads, sales, revenue,
/// conversion rate) and how sure each arm's difference from A, the control, is
/// (`ABTestSummary`), with the test's assumptions written under it. Shown when the link
/// has variants or the report has arms' totals.
enum ABTestTable {
    static func render(variants: [LinkVariant], totals: [VariantTotals], days: Int) -> HTML {
        guard !variants.isEmpty || !totals.isEmpty else { return .empty }
        let summary = ABTestSummary(totals, armCount: variants.count)
        let rows: [HTML] = summary.arms.map { arm in
            let name = LinkOptionsFields.armName(arm.index) + (arm.index == 0 ? " (control)" : "")
            let variant = arm.index < variants.count ? variants[arm.index] : nil
            let url: HTML = variant.map { "\($0.url)" } ?? "<span class=\"note\">no longer in the test</span>"
            let weight = variant.map { "\($0.weight)\u{A0}%" } ?? ""
            let revenue =
                arm.revenue.isEmpty
                ? "0" : arm.revenue.sorted { $0.key < $1.key }.map { Format.money($1, $0) }.joined(separator: ", ")
            return """
                <tr id="ab-arm-\(String(arm.index))"><th scope="row">\(name)</th><td class="url">\(url)</td>\
                <td class="number">\(weight)</td><td class="number">\(Format.count(arm.clicks))</td>\
                <td class="number">\(Format.count(arm.leads))</td><td class="number">\(Format.count(arm.sales))</td>\
                <td class="number">\(revenue)</td><td class="number">\(rate(arm.rate))</td>\
                <td class="verdict">\(verdict(arm.verdict, name: LinkOptionsFields.armName(arm.index)))</td></tr>
                """
        }
        return """
            <div id="ab-test-section"><h3 id="ab-test">A/B test</h3>
            <table id="ab-table" class="ab"><caption>Each variant over the last \(String(days)) UTC days, against A (the control)</caption>
            <thead><tr><th scope="col">Variant</th><th scope="col">URL</th><th scope="col" class="number">Weight</th>\
            <th scope="col" class="number">Clicks</th><th scope="col" class="number">Leads</th>\
            <th scope="col" class="number">Sales</th><th scope="col" class="number">Revenue</th>\
            <th scope="col" class="number">Conversion rate</th><th scope="col">Against A</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            \(assumptions)</div>
            """
    }

    static func rate(_ rate: Double?) -> String {
        guard let rate else { return "no clicks" }
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)\u{A0}%"
    }

    static func verdict(_ verdict: ABTestSummary.Verdict, name: String) -> String {
        switch verdict {
        case .control: return "Control"
        case .notEnoughData: return "Not enough data yet"
        case .noClearDifference(let c): return "No clear difference (\(ABTestSummary.percent(c)) confidence)"
        case .better(let c): return "\(name) converts better, \(ABTestSummary.percent(c)) confidence"
        case .worse(let c): return "\(name) converts worse, \(ABTestSummary.percent(c)) confidence"
        }
    }

    static let assumptions: HTML = """
        <div class="ab-assumptions" id="ab-assumptions"><p>How sure: a two-sided two-proportion z-test with a \
        pooled rate, each variant against A alone; a difference is called at 95\u{A0}% confidence (p &lt; 0.05). \
        What it assumes:</p>
        <ul>
        <li>Each click is one trial. A click converts when a lead or a sale reached it through its click ID; the \
        edge counts events, not converting clicks, so a variant's conversions are the larger of its leads and its \
        sales (a sale usually follows a lead of the same click), at most its clicks: a click with two leads counts \
        twice.</li>
        <li>Clicks are independent visitors: the variant cookie keeps a returning browser in its variant, but one \
        person on two devices is two trials.</li>
        <li>The sample is fixed: looking at the result every day and stopping at the first confident one makes a \
        chance difference look real more often than the confidence says (no correction for peeking), as does \
        comparing many variants (no correction for several comparisons).</li>
        <li>"Not enough data yet" until each variant has at least \(String(ABTestSummary.minimumClicks)) clicks \
        and, at the two variants' pooled rate, at least \(String(Int(ABTestSummary.minimumExpected))) expected \
        conversions and as many non-conversions (the normal approximation's condition).</li>
        <li>Only this period's clicks count; editing the variants starts every visitor afresh, and clicks made \
        before an edit stay with the arm's index.</li>
        </ul></div>
        """
}
