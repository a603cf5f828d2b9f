import Model

/// A link's counts by UTC day (`StoreReader.linkAnalytics`), read from the per-link daily
/// aggregates the writer keeps (`link_click_counts`, `link_country_counts`,
/// `link_open_counts`): as many rows as distinct days and values, however many clicks
/// they count.
public struct LinkAnalytics: Sendable, Equatable {
    /// Clicks (and preview bots' visits, kind `.previewBot`), ordered by day, platform,
    /// kind and in-app browser (byte order).
    public var clicks: [ClickCount]
    /// The same clicks by day and country, ordered by day and country.
    public var countries: [CountryCount]
    /// Open events that named the link, ordered by day, match type and first-open flag.
    public var opens: [OpenCount]

    public init(clicks: [ClickCount], countries: [CountryCount] = [], opens: [OpenCount]) {
        self.clicks = clicks
        self.countries = countries
        self.opens = opens
    }

    public struct ClickCount: Sendable, Equatable {
        /// Days since the epoch (UTC).
        public var day: Int64
        public var platform: VisitorPlatform
        public var kind: ClickKind
        /// The in-app browser's tag, nil for a regular browser.
        public var inAppBrowser: String?
        public var count: Int

        public init(day: Int64, platform: VisitorPlatform, kind: ClickKind, inAppBrowser: String? = nil, count: Int) {
            self.day = day
            self.platform = platform
            self.kind = kind
            self.inAppBrowser = inAppBrowser
            self.count = count
        }
    }

    public struct CountryCount: Sendable, Equatable {
        /// Days since the epoch (UTC).
        public var day: Int64
        /// ISO 3166-1 alpha-2, nil when unknown.
        public var country: String?
        public var count: Int

        public init(day: Int64, country: String?, count: Int) {
            self.day = day
            self.country = country
            self.count = count
        }
    }

    public struct OpenCount: Sendable, Equatable {
        /// Days since the epoch (UTC).
        public var day: Int64
        public var matchedBy: MatchType
        public var firstOpen: Bool
        public var count: Int

        public init(day: Int64, matchedBy: MatchType, firstOpen: Bool, count: Int) {
            self.day = day
            self.matchedBy = matchedBy
            self.firstOpen = firstOpen
            self.count = count
        }
    }

    public static let dayMilliseconds: Int64 = LinkCounter.dayMilliseconds

    /// The UTC day (days since the epoch) that holds `milliseconds`.
    public static func day(of milliseconds: Int64) -> Int64 { LinkCounter.day(milliseconds) }
}
