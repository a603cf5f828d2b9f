import HTTPMessages
import Model
import Templates

/// `GET /console/apps`: every Mobile App, with its platforms and domains.
enum AppsPage {
    static func render(_ apps: [MobileApp], csrf: String) -> HTTPResponse {
        let rows: [HTML] = apps.map { app in
            let platforms = [app.ios.map { _ in "iOS" }, app.android.map { _ in "Android" }].compactMap { $0 }
            let state: HTML =
                app.enabled
                ? "<span class=\"status-enabled\">Enabled</span>" : "<span class=\"status-disabled\">Disabled</span>"
            return """
                <tr data-app-id="\(app.id)"><th scope="row"><a href="\(ConsolePaths.app(app.id))">\(app.name)</a></th>\
                <td><code>\(app.id)</code></td><td>\(platforms.isEmpty ? "none" : platforms.joined(separator: ", "))</td>\
                <td>\(app.domains.isEmpty ? "none" : app.domains.joined(separator: ", "))</td><td>\(state)</td></tr>
                """
        }
        let body =
            rows.isEmpty
            ? Tables.empty(
                "apps-empty", columns: 5,
                "There is no Mobile App yet: create one with the API (POST /api/v1/mobile-apps) or biqli-edge apply.")
            : HTML.join(rows)
        let table: HTML = """
            <table id="apps"><caption>Mobile apps</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">ID</th><th scope="col">Platforms</th>\
            <th scope="col">Domains</th><th scope="col">Status</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
        let main: HTML = "<h1>Mobile apps</h1>\n\(table)"
        return ConsoleLayout.page(title: "Mobile apps", section: .apps, csrf: csrf, main: main)
    }
}
