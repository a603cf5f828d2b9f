import HTTPMessages
import Templates

/// The frame of every page: `lang="en"`, the stylesheet and script (same origin,
/// content-hashed), a skip link, the header with the console's navigation and the
/// sign-out form (when signed in), one `<main>` with the page's one `<h1>`.
enum ConsoleLayout {
    /// The navigation's sections.
    enum Section: CaseIterable {
        case overview, links, tags, customers, apps, domains, webhooks, settings

        var title: String {
            switch self {
            case .overview: return "Overview"
            case .links: return "Links"
            case .tags: return "Tags"
            case .customers: return "Customers"
            case .apps: return "Mobile apps"
            case .domains: return "Domains"
            case .settings: return "Settings"
            case .webhooks: return "Webhooks"
            }
        }

        var url: LocalURL {
            switch self {
            case .overview: return ConsolePaths.overview
            case .links: return ConsolePaths.links
            case .tags: return ConsolePaths.tags
            case .customers: return ConsolePaths.customers
            case .apps: return ConsolePaths.apps
            case .domains: return ConsolePaths.domains
            case .settings: return ConsolePaths.settings
            case .webhooks: return ConsolePaths.webhooks
            }
        }
    }

    /// A signed-in page (`csrf`: the session's, for the sign-out form).
    static func page(
        status: Int = 200, title: String, section: Section?, csrf: String, main: HTML,
        extraHeaders: [(String, String)] = []
    ) -> HTTPResponse {
        let items: [HTML] = Section.allCases.map { s in
            s == section
                ? "<li><a href=\"\(s.url)\" aria-current=\"page\">\(s.title)</a></li>"
                : "<li><a href=\"\(s.url)\">\(s.title)</a></li>"
        }
        let header: HTML = """
            <header class="top"><a class="brand" href="\(ConsolePaths.overview)">biqli-edge console</a>\
            <nav class="main" aria-label="Console"><ul>\(items)</ul></nav>\
            <form class="sign-out" method="post" action="\(ConsolePaths.signOut)">\
            <input type="hidden" name="csrf" value="\(csrf)"><button type="submit" id="sign-out">Sign out</button></form>\
            </header>
            """
        return response(status: status, title: title, header: header, main: main, extraHeaders: extraHeaders)
    }

    /// A page outside a session (sign-in, errors before sign-in).
    static func publicPage(status: Int, title: String, main: HTML, extraHeaders: [(String, String)] = [])
        -> HTTPResponse
    {
        let header: HTML =
            "<header class=\"top\"><a class=\"brand\" href=\"\(ConsolePaths.signIn)\">biqli-edge console</a></header>"
        return response(status: status, title: title, header: header, main: main, extraHeaders: extraHeaders)
    }

    private static func response(
        status: Int, title: String, header: HTML, main: HTML, extraHeaders: [(String, String)]
    ) -> HTTPResponse {
        let document: HTML = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>\(title) · biqli-edge console</title>\
            <link rel="icon" href="\(ConsoleAssets.icon.url)" type="image/svg+xml">\
            <link rel="stylesheet" href="\(ConsoleAssets.stylesheet.url)">\
            <script src="\(ConsoleAssets.script.url)" defer></script></head>
            <body><a class="skip" href="\(ConsolePaths.mainContent)">Skip to the content</a>
            \(header)
            <main id="main">
            \(main)
            </main>
            <footer><p>biqli-edge operator console. Days are UTC days; times are shown in UTC, or in your \
            time zone when scripts run.</p></footer>
            </body></html>

            """
        var headers = ConsoleHeaders.page()
        for (name, value) in extraHeaders { headers.add(name, value) }
        return HTTPResponse(status: status, headers: headers, body: document.bytes)
    }
}
