import HTTPMessages

/// Every page the edge renders, as plain function calls: model in, complete response out
/// (status, headers with a fresh CSP nonce where a script runs, UTF-8 body). Pure: no I/O, no
/// routing; the edge decides which page a request gets.
///
/// Build one at start-up (with the operator's language directory, if any) and share it:
///
///     let pages = Pages(strings: try StringCatalog.loading(directory: "/etc/biqli/languages"))
///     let page = pages.deepView(model, acceptLanguage: request.headers["Accept-Language"])
public struct Pages: Sendable {
    public let strings: StringCatalog

    public init(strings: StringCatalog = .builtIn) {
        self.strings = strings
    }

    /// 200, the Deep View (iOS visitor, app not installed), with `deepview.js`.
    public func deepView(_ model: DeepViewModel, acceptLanguage: String?) -> HTTPResponse {
        DeepViewPage.render(model, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 200, the page for link-preview bots (Open Graph, Twitter card, readable fallback).
    public func linkPreview(_ model: LinkPreviewModel, acceptLanguage: String?) -> HTTPResponse {
        LinkPreviewPage.render(model, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 200, `GET /m/handoff` opened in a browser: install, open, tap Paste. Never shows the token.
    public func handoffLanding(_ model: HandoffLandingModel = HandoffLandingModel(), acceptLanguage: String?)
        -> HTTPResponse
    {
        HandoffLandingPage.render(model, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 404, unknown link (or host). Echoes nothing from the request.
    public func notFound(acceptLanguage: String?) -> HTTPResponse {
        MessagePage.render(.notFound, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 410, a link its owner disabled.
    public func linkDisabled(acceptLanguage: String?) -> HTTPResponse {
        MessagePage.render(.disabled, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 410, a link past its `expiresAt` that names no `expiredUrl` (decision 0032).
    public func linkExpired(acceptLanguage: String?) -> HTTPResponse {
        MessagePage.render(.expired, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 500, anything unexpected. Says nothing about the cause.
    public func serverError(acceptLanguage: String?) -> HTTPResponse {
        MessagePage.render(.error, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// 503 with `Retry-After`: a link that cannot be read for now (the store's database is
    /// away and the link is not in the cache).
    public func unavailable(acceptLanguage: String?, retryAfterSeconds: Int) -> HTTPResponse {
        var page = MessagePage.render(.unavailable, strings: strings.strings(acceptLanguage: acceptLanguage))
        page.headers.add("Retry-After", String(retryAfterSeconds))
        return page
    }

    /// 200, `/` of a domain without a root URL.
    public func domainRoot(acceptLanguage: String?) -> HTTPResponse {
        MessagePage.render(.root, strings: strings.strings(acceptLanguage: acceptLanguage))
    }
}
