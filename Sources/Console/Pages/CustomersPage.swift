import HTTPMessages
import Management
import Model
import Templates

/// `GET /console/customers`: the workspace's customers in id order (the order of their
/// creation: ids are ULIDs), a page at a time by the API's cursor. An erased customer
/// shows as erased, without its former external ID.
enum CustomersPage {
    struct Model {
        var customers: [Customer]
        /// The next page's cursor, nil on the last page.
        var next: String?
        /// The `limit` asked for, kept in the next page's link.
        var limit: Int?
        /// The first page (no cursor).
        var first: Bool
    }

    static func render(_ m: Model, csrf: String) -> HTTPResponse {
        let erasedPrefix = WorkspaceOperations.erasedCustomerPrefix
        let rows: [HTML] = m.customers.map { c in
            let erased = c.externalId.hasPrefix(erasedPrefix)
            let name: HTML =
                erased
                ? "<a href=\"\(ConsolePaths.customer(c.externalId))\">Erased</a>"
                : "<a href=\"\(ConsolePaths.customer(c.externalId))\">\(c.externalId)</a>"
            return """
                <tr><th scope="row">\(name)</th><td>\(erased ? "" : c.name ?? "")</td>\
                <td>\(erased ? "" : c.email ?? "")</td><td>\(Format.time(c.createdAt))</td></tr>
                """
        }
        let body =
            rows.isEmpty
            ? Tables.empty(
                "customers-empty", columns: 4,
                m.first ? "No customer yet: leads sent to POST /api/v1/track/lead make them." : "No more customers.")
            : HTML.join(rows)
        let more: HTML =
            m.next.map {
                "<p><a id=\"next-page\" href=\"\(ConsolePaths.customerList(cursor: $0, limit: m.limit))\">Next page</a></p>"
            }
            ?? ""
        let main: HTML = """
            <h1>Customers</h1>
            <p>The people your server reported through leads, in the order they were first seen. A customer's \
            page shows the click that brought them, their leads and their sales.</p>
            <table id="customers"><caption>Customers, oldest first</caption>
            <thead><tr><th scope="col">External ID</th><th scope="col">Name</th><th scope="col">Email</th>\
            <th scope="col">First seen</th></tr></thead>
            <tbody>\(body)</tbody></table>
            \(more)
            """
        return ConsoleLayout.page(title: "Customers", section: .customers, csrf: csrf, main: main)
    }
}
