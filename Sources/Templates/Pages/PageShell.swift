import HTTPMessages

/// The frame every page shares: document head (charset, viewport, color scheme, stylesheet,
/// optional script with the response's nonce), `lang`/`dir`, and the response headers.
enum PageShell {
    /// Longest text shown from configuration, in characters; longer text is cut with an ellipsis
    /// (it is the operator's text, but a page must stay a page).
    static let maxNameLength = 80
    static let maxTitleLength = 200
    static let maxDescriptionLength = 600

    /// A whole response. `script` adds `deepview.js` with a fresh nonce, and the nonce to the CSP;
    /// without it, `script-src 'none'`.
    static func render(
        status: Int, strings: LocalizedStrings, title: String, head: HTML = .empty, body: HTML,
        script: Bool = false, indexable: Bool = false, nonce fixedNonce: CSPNonce? = nil
    ) -> HTTPResponse {
        let nonce: CSPNonce? = script ? (fixedNonce ?? CSPNonce.fresh()) : nil
        let scriptTag: HTML =
            nonce.map { nonce in
                "<script src=\"\(AssetCatalog.assetURL("deepview.js"))\" nonce=\"\(nonce.value)\" defer></script>\n"
            } ?? .empty
        let robots: HTML = indexable ? .empty : "<meta name=\"robots\" content=\"noindex, nofollow\">\n"
        let document: HTML = """
            <!doctype html>
            <html lang="\(strings.language)" dir="\(strings.direction)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
            <meta name="color-scheme" content="light dark">
            \(robots)<title>\(clamp(title, to: maxTitleLength))</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="\(AssetCatalog.assetURL("biqli.css"))">
            \(head)\(scriptTag)</head>
            <body>
            \(body)
            </body>
            </html>

            """
        return HTTPResponse(
            status: status, headers: HTTPHeaders(PageHeaders.html(nonce: nonce, language: strings.language)),
            body: document.bytes)
    }

    /// `text` cut to `limit` characters (grapheme clusters, so nothing is split), with `…`.
    static func clamp(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// The app row: icon (or the placeholder), name, one line under it. With `nameIsHeading`
    /// the name is the page's `<h1>` (when there is no better title, rather than saying it twice).
    static func appHeader(name: String, icon: SafeURL?, subtitle: String?, nameIsHeading: Bool = false) -> HTML {
        let image: HTML =
            if let icon {
                "<img class=\"app-icon\" src=\"\(icon)\" width=\"64\" height=\"64\" alt=\"\">"
            } else {
                "<img class=\"app-icon\" src=\"\(AssetCatalog.assetURL("app-icon.svg"))\" width=\"64\" height=\"64\" alt=\"\">"
            }
        let line: HTML = subtitle.map { "\n<p class=\"app-store\">\($0)</p>" } ?? .empty
        let shown = clamp(name, to: maxNameLength)
        let title: HTML =
            nameIsHeading
            ? "<h1 class=\"app-name\" dir=\"auto\">\(shown)</h1>" : "<p class=\"app-name\" dir=\"auto\">\(shown)</p>"
        return """
            <div class="app">
            \(image)
            <div class="app-text">
            \(title)\(line)
            </div>
            </div>
            """
    }
}
