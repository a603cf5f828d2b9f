import HTTPMessages

/// The short pages with one message: not found, disabled link, server error, domain root.
/// They echo nothing from the request (no path, no key, no host).
enum MessagePage {
    enum Kind {
        case notFound, disabled, error, root
        /// A link past its `expiresAt` (decision 0032).
        case expired
        /// The link cannot be read for now (the database is away): try again shortly.
        case unavailable

        var status: Int {
            switch self {
            case .notFound: return 404
            // A link its owner switched off is gone on purpose, not mistyped: 410 says so to
            // crawlers and caches, and the page can say why.
            case .disabled, .expired: return 410
            case .error: return 500
            case .unavailable: return 503
            case .root: return 200
            }
        }

        var keys: (title: StringKey, body: StringKey) {
            switch self {
            case .notFound: return (.notFoundTitle, .notFoundBody)
            case .disabled: return (.disabledTitle, .disabledBody)
            case .expired: return (.expiredTitle, .expiredBody)
            case .error, .unavailable: return (.errorTitle, .errorBody)
            case .root: return (.rootTitle, .rootBody)
            }
        }

        var symbol: Symbol {
            switch self {
            case .notFound: return .search
            case .disabled: return .off
            case .expired: return .clock
            case .error, .unavailable: return .warning
            case .root: return .link
            }
        }
    }

    static func render(_ kind: Kind, strings: LocalizedStrings) -> HTTPResponse {
        let body: HTML = """
            <main class="card message">
            \(symbol(kind.symbol))
            <h1>\(strings[kind.keys.title])</h1>
            <p class="lead">\(strings[kind.keys.body])</p>
            </main>
            """
        return PageShell.render(status: kind.status, strings: strings, title: strings[kind.keys.title], body: body)
    }

    /// Decorative line icons (24x24, drawn with `currentColor`), hidden from screen readers.
    enum Symbol {
        case search, off, warning, link, clipboard, clock

        var paths: HTML {
            switch self {
            case .search: return "<circle cx=\"11\" cy=\"11\" r=\"7\"/><path d=\"M16.5 16.5 21 21\"/>"
            case .off: return "<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M5.6 5.6l12.8 12.8\"/>"
            case .clock: return "<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M12 7v5l3 2\"/>"
            case .warning:
                return
                    "<path d=\"M10.3 4.2 2.6 17.5A2 2 0 0 0 4.3 20.5h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0z\"/><path d=\"M12 9.5v4\"/><path d=\"M12 17h.01\"/>"
            case .link:
                return
                    "<path d=\"M10 14a4.5 4.5 0 0 0 6.4 0l3-3a4.5 4.5 0 0 0-6.4-6.4l-1.2 1.2\"/><path d=\"M14 10a4.5 4.5 0 0 0-6.4 0l-3 3a4.5 4.5 0 0 0 6.4 6.4l1.2-1.2\"/>"
            case .clipboard:
                return
                    "<rect x=\"8.5\" y=\"3\" width=\"7\" height=\"4\" rx=\"1\"/><path d=\"M8.5 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-1.5\"/>"
            }
        }
    }

    static func symbol(_ symbol: Symbol) -> HTML {
        """
        <div class="symbol"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" \
        stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">\(symbol.paths)</svg></div>
        """
    }
}
