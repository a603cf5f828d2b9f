import HTTPMessages
import Management
import Model
import Templates

/// `GET /console/links/{id}?days=N`: one link (its short URL to copy, its QR code, what
/// it does, the actions) and its analytics over N days from the API's report, to read at
/// a glance (issue 25 item 7): the totals against the N days before, the clicks' chart,
/// the breakdowns side by side (platform, country, referring site, in-app browser, answer,
/// match type), the per-day tables folded under `<details>`; then the opens, the leads
/// and sales with the funnel, and its newest clicks and open events.
enum LinkPage {
    static let periods = [7, 30, 90]
    /// Referring sites named in their table; the rest are one "Other sites" row.
    static let referrerRows = 10

    struct Model {
        var link: Link
        var appName: String?
        var report: LinkAnalyticsReport
        var clicks: [Click]
        var opens: [OpenEvent]
        /// The workspace's tags (the link's are named by id).
        var tags: [Tag] = []
    }

    static let platformNames: [VisitorPlatform: String] = [
        .ios: "iOS", .android: "Android", .desktop: "Desktop", .bot: "Bots",
    ]
    static let matchNames: [MatchType: String] = [
        .exactAppLink: "App link", .exactInstallReferrer: "Install referrer", .exactHandoff: "Handoff",
        .probabilistic: "Probabilistic", .none: "No match",
    ]
    static let kindNames: [ClickKind: String] = [
        .androidRedirect: "To Google Play", .deepView: "Deep View", .iosFallback: "iOS fallback",
        .desktop: "To the web URL", .previewBot: "Preview bot", .playIntent: "To the Play app (in-app browser)",
        .appIntent: "To the app, then Play (in-app browser)", .inAppPage: "Deep View (in-app browser)",
    ]

    static func render(_ m: Model, csrf: String) -> HTTPResponse {
        let link = m.link
        let report = m.report
        let labels = (0..<report.days).map { Format.day(report.day($0)) }
        let platforms = LinkAnalyticsReport.platforms
        let matches = LinkAnalyticsReport.matchTypes
        let clicksChart = BarChart(
            title: "Clicks per day by platform, last \(report.days) days", labels: labels,
            series: platforms.enumerated().map { p, platform in
                .init(name: platformNames[platform] ?? platform.rawValue, values: report.clicksByDay.map { $0[p] })
            }, layout: .stacked)
        let opensChart = BarChart(
            title: "App opens per day by match type, last \(report.days) days", labels: labels,
            series: matches.enumerated().map { i, match in
                .init(name: matchNames[match] ?? match.rawValue, values: report.opensByDay.map { $0[i] })
            }, layout: .stacked)

        let conversionsChart = BarChart(
            title: "Leads and sales per day, last \(report.days) days", labels: labels,
            series: [
                .init(name: "Leads", values: report.leadsByDay), .init(name: "Sales", values: report.salesByDay),
            ], layout: .grouped)
        let breakdowns = AnalyticsBlocks.breakdowns([
            Tables.counts(
                id: "platforms-table", caption: "Clicks by platform", header: "Platform",
                rows: platforms.enumerated().map { (platformNames[$1] ?? $1.rawValue, report.platformTotals[$0]) }),
            Tables.counts(
                id: "countries-table", caption: "Clicks by country", header: "Country",
                rows: report.countries.map { ($0.name == "unknown" ? "Unknown" : $0.name, $0.count) }),
            Tables.counts(
                id: "referrers-table", caption: "Clicks by referring site", header: "Site",
                rows: report.topReferrers(Self.referrerRows).map { r in
                    switch r.name {
                    case "none": ("None (no Referer)", r.count)
                    case "other": ("Other sites", r.count)
                    default: (r.name, r.count)
                    }
                }),
            Tables.counts(
                id: "browsers-table", caption: "Clicks by in-app browser", header: "In-app browser",
                rows: report.inAppBrowsers.map { ($0.name == "none" ? "None (a regular browser)" : $0.name, $0.count) }),
            Tables.counts(
                id: "kinds-table", caption: "Clicks by what the edge did", header: "Answer",
                rows: LinkAnalyticsReport.kinds.enumerated().map {
                    (kindNames[$1] ?? $1.rawValue, report.kindTotals[$0])
                }),
            Tables.counts(
                id: "matches-table", caption: "App opens by match type", header: "Match",
                rows: matches.enumerated().map { (matchNames[$1] ?? $1.rawValue, report.matchTotals[$0]) },
                unit: "Opens"),
        ])

        let main: HTML = """
            <h1>\(link.domain)/\(link.key)</h1>
            \(head(m, csrf: csrf))
            <h2 id="analytics">Analytics</h2>
            \(periodNav(link.id, days: report.days))
            \(AnalyticsBlocks.totalsSection(AnalyticsBlocks.totals(current: report.totals, previous: report.previous), days: report.days))
            <p>\(Format.count(report.clickTotal)) clicks (preview bots included) and \(Format.count(report.openTotal)) app opens \
            (\(Format.count(report.firstOpens)) first opens) in the last \(report.days) UTC days; installs are first opens \
            with a match.</p>
            \(ABTestTable.render(variants: link.options?.variants ?? [], totals: report.variants, days: report.days))
            <h3 id="clicks">Clicks by platform</h3>
            <figure id="clicks-chart">\(clicksChart.svg(id: "clicks-chart-svg", description: "Stacked bars of the clicks of each UTC day by platform; the table under Clicks per day has the numbers."))\
            <figcaption>\(clicksChart.legend())</figcaption></figure>
            <h3 id="breakdowns">Breakdowns</h3>
            \(breakdowns)
            \(AnalyticsBlocks.folded("Clicks per day", Tables.days(id: "clicks-table", caption: "Clicks per UTC day by platform, newest first", labels: labels, columns: platforms.map { platformNames[$0] ?? $0.rawValue }, rows: report.clicksByDay)))
            <h3 id="opens">App opens by match type</h3>
            <figure id="opens-chart">\(opensChart.svg(id: "opens-chart-svg", description: "Stacked bars of the app opens of each UTC day by match type; the table under App opens per day has the numbers."))\
            <figcaption>\(opensChart.legend())</figcaption></figure>
            \(AnalyticsBlocks.folded("App opens per day", Tables.days(id: "opens-table", caption: "App opens per UTC day by match type, newest first", labels: labels, columns: matches.map { matchNames[$0] ?? $0.rawValue }, rows: report.opensByDay)))
            <h3 id="conversions">Leads and sales</h3>
            \(AnalyticsBlocks.funnel(report.funnel))
            <figure id="conversions-chart">\(conversionsChart.svg(id: "conversions-chart-svg", description: "Bars of the leads and the sales of each UTC day; the table under Leads and sales per day has the numbers."))\
            <figcaption>\(conversionsChart.legend())</figcaption></figure>
            \(AnalyticsBlocks.folded("Leads and sales per day", conversionsTable(report, labels: labels)))
            <h2 id="recent">Recent activity</h2>
            \(recentClicks(m.clicks))
            \(recentOpens(m.opens))
            """
        return ConsoleLayout.page(title: link.shortUrl, section: .links, csrf: csrf, main: main)
    }

    /// The short URL with its copy button and QR code, what the link does, the actions.
    private static func head(_ m: Model, csrf: String) -> HTML {
        let link = m.link
        let status: HTML =
            link.enabled
            ? "<span class=\"status-enabled\">Enabled</span>"
            : "<span class=\"status-disabled\">Disabled</span> (visits get the domain's not-found answer)"
        let app: HTML =
            link.mobile.map { mobile in
                "<a href=\"\(ConsolePaths.app(mobile.appId))\">\(m.appName ?? mobile.appId)</a>, route <code>\(mobile.route)</code>"
            } ?? "None: a web-only link"
        let toggle: HTML =
            link.enabled
            ? """
            <form method="post" action="\(ConsolePaths.disableLink(link.id))"><input type="hidden" name="csrf" value="\(csrf)">\
            <button type="submit" class="secondary" id="disable-link">Disable</button></form>
            """
            : """
            <form method="post" action="\(ConsolePaths.enableLink(link.id))"><input type="hidden" name="csrf" value="\(csrf)">\
            <button type="submit" class="secondary" id="enable-link">Enable</button></form>
            """
        return """
            <div class="link-head"><div>
            <p class="short-url"><code id="short-url">\(link.shortUrl)</code> \
            <button type="button" class="secondary" id="copy-short-url" data-copy="short-url" hidden>Copy</button>\
            <span id="copy-status" class="note" role="status"></span></p>
            <dl class="facts">
            <dt>Destination</dt><dd class="url">\(link.url)</dd>
            <dt>Mobile app</dt><dd>\(app)</dd>
            <dt>Status</dt><dd id="link-status">\(status)</dd>
            <dt>Preview title</dt><dd>\(link.preview?.title ?? "none")</dd>
            \(optionFacts(m))
            <dt>Created</dt><dd>\(Format.time(link.createdAt))</dd>
            <dt>Updated</dt><dd>\(Format.time(link.updatedAt))</dd>
            <dt>ID</dt><dd><code>\(link.id)</code></dd>
            </dl>
            <div class="actions"><a class="button" id="edit-link" href="\(ConsolePaths.editLink(link.id))">Edit</a>\
            \(toggle)<a class="button secondary" id="delete-link" href="\(ConsolePaths.deleteLink(link.id))">Delete…</a></div>
            </div>
            <img id="qr" src="\(ConsolePaths.qrCode(link.id))" width="176" height="176" alt="QR code of \(link.shortUrl)">
            </div>
            """
    }

    /// Leads, sales and the revenue of each currency per UTC day (of the events'
    /// `occurredAt`), newest first.
    static func conversionsTable(_ report: LinkAnalyticsReport, labels: [String]) -> HTML {
        let currencies = report.currencies
        let head: [HTML] = currencies.map { "<th scope=\"col\" class=\"number\">Revenue (\($0.uppercased()))</th>" }
        let rows: [HTML] = labels.indices.reversed().map { i in
            let money: [HTML] = currencies.map {
                "<td class=\"number\">\(Format.money(report.revenueByDay[i][$0] ?? 0, $0))</td>"
            }
            return """
                <tr><th scope="row">\(labels[i])</th><td class="number">\(Format.count(report.leadsByDay[i]))</td>\
                <td class="number">\(Format.count(report.salesByDay[i]))</td>\(money)</tr>
                """
        }
        return """
            <table id="conversions-table"><caption>Leads and sales per UTC day, newest first</caption>
            <thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="number">Leads</th>\
            <th scope="col" class="number">Sales</th>\(head)</tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// What decision 0032's fields add, when the link has them.
    private static func optionFacts(_ m: Model) -> HTML {
        guard let o = m.link.options else { return .empty }
        var out: [HTML] = []
        if !o.tagIds.isEmpty {
            let names: [HTML] = o.tagIds.map { id in m.tags.first { $0.id == id }.map { TagBadge.badge($0) } ?? "\(id)"
            }
            out.append("<dt>Tags</dt><dd id=\"link-tags\">\(names)</dd>")
        }
        if !o.rules.isEmpty {
            out.append("<dt>Routing rules</dt><dd>\(Format.count(o.rules.count)) (the form lists them)</dd>")
        }
        if !o.variants.isEmpty {
            out.append("<dt>A/B test</dt><dd><a href=\"#ab-test\">\(Format.count(o.variants.count)) variants</a></dd>")
        }
        if let utm = o.utm {
            out.append(
                "<dt>UTM</dt><dd><code>\(utm.parameters.map { $0.0 + "=" + $0.1 }.joined(separator: "&"))</code></dd>")
        }
        if let pass = o.passQuery {
            out.append("<dt>Visitor's query</dt><dd>\(pass ? "passed on" : "not passed")</dd>")
        }
        if let expiresAt = o.expiresAt {
            let then: HTML = o.expiredUrl.map { "then to <span class=\"url\">\($0)</span>" } ?? "then a 410 page"
            out.append("<dt>Expires</dt><dd id=\"link-expiry\">\(Format.time(expiresAt)), \(then)</dd>")
        }
        if let externalId = o.externalId {
            out.append("<dt>External ID</dt><dd><code>\(externalId)</code></dd>")
        }
        return HTML.join(out)
    }

    private static func periodNav(_ id: String, days: Int) -> HTML {
        let items: [HTML] = periods.map { n in
            n == days
                ? "<li><a href=\"\(ConsolePaths.linkDays(id, n))\" aria-current=\"page\">\(n) days</a></li>"
                : "<li><a href=\"\(ConsolePaths.linkDays(id, n))\">\(n) days</a></li>"
        }
        return "<nav class=\"period\" aria-label=\"Period\"><ul>\(items)</ul></nav>"
    }

    private static func recentClicks(_ clicks: [Click]) -> HTML {
        let rows: [HTML] = clicks.map { c in
            let values = c.dynamic.map { $0.0 + "=" + $0.1 }.joined(separator: ", ")
            return """
                <tr><td>\(Format.time(c.at))</td><td>\(platformNames[c.platform] ?? c.platform.rawValue)</td>\
                <td>\(kindNames[c.kind] ?? c.kind.rawValue)</td><td>\(c.inAppBrowser ?? "none")</td>\
                <td>\(c.country ?? "unknown")</td><td>\(c.osVersion ?? "")</td><td>\(values)</td></tr>
                """
        }
        let body =
            rows.isEmpty
            ? Tables.empty("recent-clicks-empty", columns: 7, "No click is kept for this link.") : HTML.join(rows)
        return """
            <table id="recent-clicks"><caption>Recent clicks, newest first</caption>
            <thead><tr><th scope="col">Time</th><th scope="col">Platform</th><th scope="col">Answer</th>\
            <th scope="col">In-app browser</th><th scope="col">Country</th><th scope="col">iOS version</th>\
            <th scope="col">Query values kept</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
    }

    private static func recentOpens(_ opens: [OpenEvent]) -> HTML {
        let rows: [HTML] = opens.map { o in
            """
            <tr><td>\(Format.time(o.at))</td><td>\(o.platform == .ios ? "iOS" : "Android")</td>\
            <td>\(matchNames[o.matchedBy] ?? o.matchedBy.rawValue)</td><td>\(o.firstOpen ? "yes" : "no")</td>\
            <td>\(o.sdkVersion)</td></tr>
            """
        }
        let body =
            rows.isEmpty
            ? Tables.empty("recent-opens-empty", columns: 5, "No app open named this link yet.") : HTML.join(rows)
        return """
            <table id="recent-opens"><caption>Recent app opens that named this link, newest first</caption>
            <thead><tr><th scope="col">Time</th><th scope="col">Platform</th><th scope="col">Match</th>\
            <th scope="col">First open</th><th scope="col">SDK version</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
    }
}
