import Core

/// What the edge did with a visit; the analytics buckets of the management API.
public enum ClickKind: String, Sendable, Equatable, CaseIterable {
    case androidRedirect = "android_redirect"
    case deepView = "deep_view"
    case iosFallback = "ios_fallback"
    case desktop = "desktop"
    case previewBot = "preview_bot"
    /// An Android visit from an in-app web view sent to the Play Store app by an intent
    /// (decision 0033).
    case playIntent = "play_intent"
    /// An Android visit from an in-app web view sent to the app's own intent first.
    case appIntent = "app_intent"
    /// An iOS visit from an in-app browser that got the Deep View with its in-app part
    /// (Safari, the alternate domain, Continue; decision 0033 §4).
    case inAppPage = "in_app_page"
}

/// The visitor's platform as the classifier saw it.
public enum VisitorPlatform: String, Sendable, Equatable, CaseIterable {
    case ios, android, desktop, bot
}

/// One human visit of a short link. Bots and HEAD requests never make one
/// (`previewBot` exists for analytics counters kept elsewhere).
public struct Click: Sendable, Equatable {
    /// `biq_clk_` + ULID; returned to apps as `click.id`.
    public var id: String
    public var linkId: String
    /// The link's Mobile App when it is mobile-enabled.
    public var appId: String?
    public var domain: String
    /// Milliseconds since the epoch.
    public var at: Int64
    public var kind: ClickKind
    public var platform: VisitorPlatform
    /// In-app browser tag (`instagram`, `facebook`, `tiktok`, `line`, `wechat`, `webview`...), or nil.
    public var inAppBrowser: String?
    /// Allowed dynamic values captured from the query, in query order.
    public var dynamic: [(String, String)]
    /// iOS only: keyed hash (BLAKE2b with the edge's secret) of the source address. Never the address.
    public var sourceHash: [UInt8]?
    /// iOS only: OS version parsed from the user agent (`17.4`).
    public var osVersion: String?
    /// ISO 3166-1 alpha-2 code (`DE`) of the client address in the GeoIP database
    /// (`BIQLI_EDGE_GEOIP_DB`), or nil: no database, or the address is not in it. The
    /// address itself is never kept.
    public var country: String?
    /// The referring site (`ReferringSite.host` of the visit's `Referer`), or nil. Counted
    /// per link and day (`link_referrer_counts`), not kept in the click's row.
    public var referrer: String?
    /// The index in the link's `variants` of the arm this visit got (an A/B test's web
    /// visits only), or nil.
    public var variant: Int?

    public init(
        id: String, linkId: String, appId: String?, domain: String, at: Int64, kind: ClickKind,
        platform: VisitorPlatform, inAppBrowser: String? = nil, dynamic: [(String, String)] = [],
        sourceHash: [UInt8]? = nil, osVersion: String? = nil, country: String? = nil, referrer: String? = nil,
        variant: Int? = nil
    ) {
        self.id = id
        self.linkId = linkId
        self.appId = appId
        self.domain = domain
        self.at = at
        self.kind = kind
        self.platform = platform
        self.inAppBrowser = inAppBrowser
        self.dynamic = dynamic
        self.sourceHash = sourceHash
        self.osVersion = osVersion
        self.country = country
        self.referrer = referrer
        self.variant = variant
    }

    public static func == (a: Click, b: Click) -> Bool {
        a.id == b.id && a.linkId == b.linkId && a.appId == b.appId && a.domain == b.domain && a.at == b.at
            && a.kind == b.kind && a.platform == b.platform && a.inAppBrowser == b.inAppBrowser
            && a.dynamic.elementsEqual(b.dynamic, by: ==) && a.sourceHash == b.sourceHash
            && a.osVersion == b.osVersion && a.country == b.country && a.referrer == b.referrer
            && a.variant == b.variant
    }
}
