import HTTPMessages
import Management
import Templates

/// `GET /console/`: the workspace's totals of the last 30 days against the 30 before
/// (clicks, installs, leads, sales, revenue), the chart, its top links beside the
/// funnel, and the per-day table folded, as the background thread last counted them.
enum OverviewPage {
    static func render(_ snapshot: OverviewSnapshot, refreshSeconds: Int64, csrf: String) -> HTTPResponse {
        let labels = (0..<snapshot.days).map { Format.day(snapshot.firstDay + Int64($0)) }
        let chart = BarChart(
            title: "Clicks and opens per day, last \(snapshot.days) days",
            labels: labels,
            series: [.init(name: "Clicks", values: snapshot.clicks), .init(name: "Opens", values: snapshot.opens)],
            layout: .grouped)
        let totalClicks = snapshot.clicks.reduce(0, +)
        let totalOpens = snapshot.opens.reduce(0, +)
        let rows: [HTML] = labels.indices.reversed().map { i in
            """
            <tr><th scope="row">\(labels[i])</th><td class="number">\(Format.count(snapshot.clicks[i]))</td>\
            <td class="number">\(Format.count(snapshot.opens[i]))</td>\
            <td class="number">\(Format.count(snapshot.leads[i]))</td>\
            <td class="number">\(Format.count(snapshot.sales[i]))</td></tr>
            """
        }
        let funnel = ConversionFunnel(clicks: totalClicks, leads: snapshot.totals.leads, sales: snapshot.totals.sales)
        let top: [HTML] = snapshot.topLinks.map { link in
            let name: HTML =
                link.shortUrl.map { "<a href=\"\(ConsolePaths.link(link.id))\">\($0)</a>" }
                ?? "\(link.id) (deleted)"
            return """
                <tr data-link-id="\(link.id)"><th scope="row">\(name)</th><td class="url">\(link.url ?? "")</td>\
                <td class="number">\(Format.count(link.clicks))</td></tr>
                """
        }
        let topBody =
            top.isEmpty
            ? Tables.empty("top-links-empty", columns: 3, "No link was clicked in these \(snapshot.days) days.")
            : HTML.join(top)
        let topTable: HTML = """
            <table id="top-links"><caption>Links with the most clicks, last \(snapshot.days) days</caption>
            <thead><tr><th scope="col">Short URL</th><th scope="col">Destination</th><th scope="col" class="number">Clicks</th></tr></thead>
            <tbody>\(topBody)</tbody></table>
            """
        let main: HTML = """
            <h1>Overview</h1>
            <p class="freshness" id="freshness">Counted at \(Format.time(snapshot.countedAt)); the counts are \
            taken again, in the background, when this page is opened and they are older than \
            \(Format.duration(seconds: Int(refreshSeconds))).</p>
            \(AnalyticsBlocks.totalsSection(AnalyticsBlocks.totals(current: snapshot.totals, previous: snapshot.previous), days: snapshot.days))
            <p>\(Format.count(totalClicks)) clicks and \(Format.count(totalOpens)) app opens in the last \
            \(snapshot.days) days (clicks include link-preview bots; installs are first opens with a match).</p>
            <figure id="overview-chart">\(chart.svg(id: "overview-chart-svg", description: "Clicks and opens per UTC day; the table under By day has the numbers."))\
            <figcaption>\(chart.legend())</figcaption></figure>
            <div class="breakdowns">
            <section aria-labelledby="top"><h2 id="top">Top links</h2>
            \(topTable)</section>
            <section aria-labelledby="funnel-title"><h2 id="funnel-title">Leads and sales</h2>
            \(AnalyticsBlocks.funnel(funnel, clicksWithBots: true))
            <p class="note">Every link's leads and sales, by the day they occurred; clicks here include preview bots.</p>
            </section>
            </div>
            <h2 id="by-day">By day</h2>
            \(AnalyticsBlocks.folded("Clicks, opens, leads and sales per day", overviewTable(rows)))
            """
        return ConsoleLayout.page(title: "Overview", section: .overview, csrf: csrf, main: main)
    }

    static func overviewTable(_ rows: [HTML]) -> HTML {
        """
        <table id="overview-table"><caption>Clicks, opens, leads and sales per UTC day, newest first</caption>
        <thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="number">Clicks</th>\
        <th scope="col" class="number">Opens</th><th scope="col" class="number">Leads</th>\
        <th scope="col" class="number">Sales</th></tr></thead>
        <tbody>\(rows)</tbody></table>
        """
    }

    /// Before the first count is done (a large workspace, just started).
    static func counting(csrf: String) -> HTTPResponse {
        let main: HTML = """
            <h1>Overview</h1>
            <p id="freshness" role="status">The counts are being taken for the first time since the edge \
            started; reload this page in a few seconds.</p>
            """
        return ConsoleLayout.page(title: "Overview", section: .overview, csrf: csrf, main: main)
    }
}
