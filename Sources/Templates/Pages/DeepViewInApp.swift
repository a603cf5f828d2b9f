/// The Deep View's part for a visitor inside an app's own browser (Instagram's, TikTok's,
/// an unknown WKWebView...), where universal links do not fire and a link cannot leave
/// for Safari (decision 0033 §4). It comes after Continue, which works everywhere and
/// stays the page's main button: a heading that says where the visitor is, then the ways
/// out that work there.
public struct DeepViewInApp: Sendable, Equatable {
    /// How to reach Safari when the page cannot link there.
    public enum Steps: Sendable, Equatable {
        /// The app's `⋯` menu at the top, then open in the browser (the apps whose menu the
        /// table in `docs/in-app-browsers.md` names).
        case ellipsisMenu
        /// The app's menu, then open in the browser: any other app.
        case appMenu
    }

    /// The app whose browser this is, as people know it ("Instagram"); nil says "an
    /// app's browser" (an unknown WKWebView).
    public var browserName: String?
    /// The short link Safari should open: the page links to `x-safari-` + it, the scheme
    /// iOS hands to Safari. Nil: no such link (then `steps`, if any).
    public var safariURL: SafeURL?
    /// The menu steps to Safari, shown as text when there is no `safariURL`; nil: none
    /// (Safari turned off by the operator).
    public var steps: Steps?
    /// The short link on the domain's alternate hostname ("Open in <app>"): a tap that
    /// crosses domains, so iOS opens the app when it is installed. Nil: not offered.
    public var appURL: SafeURL?

    public init(browserName: String?, safariURL: SafeURL? = nil, steps: Steps? = nil, appURL: SafeURL? = nil) {
        self.browserName = browserName
        self.safariURL = safariURL
        self.steps = steps
        self.appURL = appURL
    }
}
