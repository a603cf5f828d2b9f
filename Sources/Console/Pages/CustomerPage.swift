import HTTPMessages
import Management
import Model
import Templates

/// `GET /console/customers/{externalId}`: one customer and the journey, oldest first:
/// the click that brought them (time, link), then their leads and their sales with the
/// amounts. An erased customer shows as erased (its events and amounts stay).
enum CustomerPage {
    static func render(_ j: WorkspaceOperations.CustomerJourney, csrf: String) -> HTTPResponse {
        let c = j.customer
        let linkCell: HTML =
            j.link.map { "<a href=\"\(ConsolePaths.link($0.id))\">\($0.shortUrl)</a> (<code>\($0.id)</code>)" }
            ?? (c.linkId.map { "<code>\($0)</code> (deleted)" } ?? "none")
        var rows: [HTML] = []
        if let click = j.click {
            rows.append(
                """
                <tr><td>\(Format.time(click.at))</td><td>Click</td><td><code>\(click.id)</code></td>\
                <td>\(linkCell)</td></tr>
                """)
        } else if let id = c.clickId {
            rows.append(
                "<tr><td></td><td>Click</td><td><code>\(id)</code> (no longer kept)</td><td>\(linkCell)</td></tr>")
        }
        for e in j.events {
            let what: HTML
            switch e.type {
            case .lead: what = "\(e.eventName)"
            case .sale:
                let money = Format.money(Int128(e.amount ?? 0), e.currency ?? "usd")
                what = "\(money) · \(e.eventName)\(e.invoiceId.map { " · invoice " + $0 } ?? "")"
            }
            let link: HTML = e.linkId.map { "<a href=\"\(ConsolePaths.link($0))\"><code>\($0)</code></a>" } ?? ""
            rows.append(
                """
                <tr><td>\(Format.time(e.occurredAt))</td><td>\(e.type == .lead ? "Lead" : "Sale")</td>\
                <td>\(what)</td><td>\(link)</td></tr>
                """)
        }
        let body = rows.isEmpty ? Tables.empty("journey-empty", columns: 4, "Nothing recorded.") : HTML.join(rows)
        let title = j.erased ? "Erased customer" : c.externalId
        let facts: HTML =
            j.erased
            ? """
            <p id="erased" class="notice">This customer was erased: the name, email, avatar and external ID are \
            gone; the click, the leads and the sales stay, so the counts and the revenue do.</p>
            """
            : """
            <dl class="facts">
            <dt>External ID</dt><dd><code>\(c.externalId)</code></dd>
            <dt>Name</dt><dd>\(c.name ?? "none")</dd>
            <dt>Email</dt><dd>\(c.email ?? "none")</dd>
            <dt>First seen</dt><dd>\(Format.time(c.createdAt))</dd>
            </dl>
            """
        let main: HTML = """
            <h1>\(title)</h1>
            <p><a href="\(ConsolePaths.customers)">All customers</a></p>
            \(facts)
            <dl class="facts"><dt>ID</dt><dd><code>\(c.id)</code></dd></dl>
            <h2 id="journey-title">Journey</h2>
            <table id="journey"><caption>The click, the leads and the sales, oldest first (times of the events' \
            occurredAt)</caption>
            <thead><tr><th scope="col">Time</th><th scope="col">Step</th><th scope="col">What</th>\
            <th scope="col">Link</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
        return ConsoleLayout.page(title: title, section: .customers, csrf: csrf, main: main)
    }
}
