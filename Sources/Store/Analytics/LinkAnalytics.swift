import Model

/// A link's counts by UTC day (`StoreReader.linkAnalytics`), read from the per-link daily
/// aggregates the writer keeps (`link_click_counts`, `link_country_counts`,
/// `link_referrer_counts`, `link_open_counts`, `link_conversion_counts` and the A/B arms'
/// `link_variant_counts` and `link_variant_conversion_counts`): as many rows as
/// distinct days and values, however many clicks they count.
public struct LinkAnalytics: Sendable, Equatable {
    /// Clicks (and preview bots' visits, kind `.previewBot`), ordered by day, platform,
    /// kind and in-app browser (byte order).
    public var clicks: [ClickCount]
    /// The same clicks by day and country, ordered by day and country.
    public var countries: [CountryCount]
    /// The clicks with a referring site, by day and site (schema 14), ordered by day and
    /// site; the others named none.
    public var referrers: [ReferrerCount]
    /// Open events that named the link, ordered by day, match type and first-open flag.
    public var opens: [OpenCount]
    /// Leads and sales of the link by the UTC day they occurred, type and currency
    /// (`link_conversion_counts`, schema 12), ordered by day, type and currency.
    public var conversions: [ConversionCount]
    /// The clicks that got an arm of the link's A/B test, by day and arm
    /// (`link_variant_counts`, schema 17), ordered by day and arm.
    public var variantClicks: [VariantClickCount]
    /// The leads and sales whose click got an arm, by day, arm, type and currency
    /// (`link_variant_conversion_counts`), ordered so.
    public var variantConversions: [VariantConversionCount]

    public init(
        clicks: [ClickCount], countries: [CountryCount] = [], referrers: [ReferrerCount] = [], opens: [OpenCount],
        conversions: [ConversionCount] = [], variantClicks: [VariantClickCount] = [],
        variantConversions: [VariantConversionCount] = []
    ) {
        self.clicks = clicks
        self.countries = countries
        self.referrers = referrers
        self.opens = opens
        self.conversions = conversions
        self.variantClicks = variantClicks
        self.variantConversions = variantConversions
    }

    public struct VariantClickCount: Sendable, Equatable {
        /// Days since the epoch (UTC).
        public var day: Int64
        /// The arm's index in the link's `variants` when the click was recorded.
        public var variant: Int
        public var count: Int

        public init(day: Int64, variant: Int, count: Int) {
            self.day = day
            self.variant = variant
            self.count = count
        }
    }

    public struct VariantConversionCount: Sendable, Equatable {
        /// Days since the epoch (UTC) of the event's `occurredAt`.
        public var day: Int64
        /// The arm of the event's click.
        public var variant: Int
        public var type: ConversionType
        /// The sales' currency code as stored; nil for leads.
        public var currency: String?
        public var count: Int
        /// As `ConversionCount.amount`.
        public var amount: Int128

        public init(day: Int64, variant: Int, type: ConversionType, currency: String?, count: Int, amount: Int128) {
            self.day = day
            self.variant = variant
            self.type = type
            self.currency = currency
            self.count = count
            self.amount = amount
        }
    }

    public struct ConversionCount: Sendable, Equatable {
        /// Days since the epoch (UTC) of the event's `occurredAt`.
        public var day: Int64
        public var type: ConversionType
        /// The sales' ISO 4217 code as stored (lowercase); nil for leads.
        public var currency: String?
        public var count: Int
        /// The sum of the sales' amounts in the currency's minor units; 0 for leads. 128
        /// bits: a day's sales of the largest amount pass 64 after 1,024 (decision 0029).
        public var amount: Int128

        public init(day: Int64, type: ConversionType, currency: String?, count: Int, amount: Int128) {
            self.day = day
            self.type = type
            self.currency = currency
            self.count = count
            self.amount = amount
        }
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

    public struct ReferrerCount: Sendable, Equatable {
        /// Days since the epoch (UTC).
        public var day: Int64
        /// The referring site (`ReferringSite.host`); nil only in a row no edge writes.
        public var referrer: String?
        public var count: Int

        public init(day: Int64, referrer: String?, count: Int) {
            self.day = day
            self.referrer = referrer
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
