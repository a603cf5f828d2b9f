import Management
import Templates

/// The blocks the link page and the overview share (issue 25 item 7): the totals first,
/// each against the previous period of the same length, the funnel, and the breakdowns
/// side by side. Every number is text (the change's color repeats what the text says).
enum AnalyticsBlocks {
    /// One total: its id, its name, the number as shown now and before, and the change.
    struct Total {
        var id: String
        var name: String
        var value: String
        var previous: String
        var change: PeriodChange
    }

    /// Clicks, installs, leads, sales, then one revenue per currency of either period.
    static func totals(current: PeriodTotals, previous: PeriodTotals) -> [Total] {
        func count(_ id: String, _ name: String, _ a: Int, _ b: Int) -> Total {
            Total(
                id: id, name: name, value: Format.count(a), previous: Format.count(b),
                change: PeriodChange(current: a, previous: b))
        }
        var list = [
            count("total-clicks", "Clicks", current.clicks, previous.clicks),
            count("total-installs", "Installs", current.installs, previous.installs),
            count("total-leads", "Leads", current.leads, previous.leads),
            count("total-sales", "Sales", current.sales, previous.sales),
        ]
        let currencies = PeriodTotals.currencies(current, previous)
        for c in currencies {
            let (a, b) = (current.revenue[c] ?? 0, previous.revenue[c] ?? 0)
            list.append(
                Total(
                    id: "total-revenue-\(c)", name: "Revenue (\(c.uppercased()))", value: Format.money(a, c),
                    previous: Format.money(b, c), change: PeriodChange(current: a, previous: b)))
        }
        if currencies.isEmpty {
            list.append(
                Total(id: "total-revenue", name: "Revenue", value: "0", previous: "0", change: .none))
        }
        return list
    }

    static func totalsSection(_ totals: [Total], days: Int) -> HTML {
        let items: [HTML] = totals.map { t in
            let direction: String
            switch t.change {
            case .percent(let p) where p > 0: direction = "change up"
            case .percent(let p) where p < 0: direction = "change down"
            default: direction = "change"
            }
            return """
                <div id="\(t.id)"><dl><dt>\(t.name)</dt><dd class="value">\(t.value)</dd>\
                <dd class="\(direction)">\(t.change.label) <span class="note">against \(t.previous) \
                the \(days) days before</span></dd></dl></div>
                """
        }
        return """
            <section id="totals" aria-labelledby="totals-title"><h2 id="totals-title">Last \(days) days</h2>
            <div class="totals">\(HTML.join(items))</div></section>
            """
    }

    /// Clicks -> leads -> sales, with the rate of each step. `clicksWithBots`: the overview's
    /// clicks come from the workspace's daily totals, which do not set link-preview bots apart
    /// (the caption says so instead of claiming what the link page's funnel does).
    static func funnel(_ f: ConversionFunnel, clicksWithBots: Bool = false) -> HTML {
        func rate(_ r: Double?) -> String { r.map { "\($0) %" } ?? "–" }
        let clicks = clicksWithBots ? "clicks (preview bots included)" : "clicks (without preview bots)"
        return """
            <table id="funnel"><caption>Funnel: \(clicks), then leads, then sales</caption>
            <thead><tr><th scope="col">Step</th><th scope="col" class="number">Count</th>\
            <th scope="col" class="number">Of the step before</th></tr></thead>
            <tbody><tr><th scope="row">Clicks</th><td class="number">\(Format.count(f.clicks))</td><td class="number">–</td></tr>
            <tr><th scope="row">Leads</th><td class="number">\(Format.count(f.leads))</td>\
            <td class="number">\(rate(f.leadRate))</td></tr>
            <tr><th scope="row">Sales</th><td class="number">\(Format.count(f.sales))</td>\
            <td class="number">\(rate(f.saleRate))</td></tr></tbody></table>
            """
    }

    /// A table per breakdown, side by side (one column on a narrow screen).
    static func breakdowns(_ tables: [HTML]) -> HTML {
        "<div class=\"breakdowns\">\(HTML.join(tables))</div>"
    }

    /// The per-day table folded under a disclosure: closed, it stays in the page (for
    /// screen readers' table navigation once opened, and for copying).
    static func folded(_ summary: String, _ table: HTML) -> HTML {
        "<details class=\"days\"><summary>\(summary)</summary>\(table)</details>"
    }
}
