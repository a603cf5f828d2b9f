import Model

/// The per-link daily counts of the writer's current batch, before they reach
/// `link_click_counts`, `link_country_counts`, `link_referrer_counts`, `link_open_counts`
/// and the A/B arms' `link_variant_counts`: what a link's analytics read
/// (`StoreReader.linkAnalytics`), a few rows per day whatever the number of clicks.
///
/// As `ClickCounter` does for the apps' hourly counts, the writer adds each click (every
/// click, with an app or not), each preview bot's visit and each open event of a link
/// here, and writes the sums once per batch, one UPSERT per distinct key. Countries and
/// referring sites are each counted apart from the platform, kind and in-app browser:
/// crossed with them, a link seen from 150 countries would keep thousands of rows a day.
/// Only clicks with a referring site count by site (the rest are the report's `none`).
/// A batch's clicks mostly share a key: the last one is compared first, then the few
/// others one by one; only a batch of more than `indexedFrom` keys (spread over many
/// links) hashes them. Not thread-safe: the writer's transaction owns it, inside its
/// `ClickCounter`, so that what restores the one restores the other.
struct LinkCounter: Equatable {
    static let dayMilliseconds: Int64 = 86_400_000
    /// Keys compared one by one below this many; by hash from here on.
    static let indexedFrom = 8

    /// One row of `link_click_counts`. An absent browser is the empty string: it is part
    /// of the primary key, which takes no NULL.
    struct ClickKey: Hashable {
        var linkId: String
        var day: Int64
        var platform: VisitorPlatform
        var kind: ClickKind
        /// The in-app browser's tag; "" for a regular browser.
        var inAppBrowser: String
    }

    /// One row of `link_country_counts`.
    struct CountryKey: Hashable {
        var linkId: String
        var day: Int64
        /// The ISO country code; "" when unknown.
        var country: String
    }

    /// One row of `link_referrer_counts` (schema 14): clicks with a referring site only.
    struct ReferrerKey: Hashable {
        var linkId: String
        var day: Int64
        /// The referring site (`ReferringSite.host`).
        var referrer: String
    }

    /// One row of `link_open_counts`.
    struct OpenKey: Hashable {
        var linkId: String
        var day: Int64
        var matchedBy: MatchType
        var firstOpen: Bool
    }

    /// One row of `link_conversion_counts` (schema 12): leads have the currency "".
    struct ConversionKey: Hashable {
        var linkId: String
        var day: Int64
        var type: ConversionType
        var currency: String
    }

    /// One row of `link_variant_counts` (schema 17): clicks of one arm of the link's A/B test.
    struct VariantKey: Hashable {
        var linkId: String
        var day: Int64
        var variant: Int
    }

    /// One row of `link_variant_conversion_counts` (schema 17): leads have the currency "".
    struct VariantConversionKey: Hashable {
        var linkId: String
        var day: Int64
        var variant: Int
        var type: ConversionType
        var currency: String
    }

    /// A conversion row's sums: how many events and, for sales, their amounts (minor units,
    /// 128 bits: a batch's sales of one link, day and currency may pass 64, decision 0029).
    struct ConversionSum: Equatable {
        var count: Int
        var amount: Int128
    }

    private(set) var clicks: [(key: ClickKey, count: Int)] = []
    private(set) var countries: [(key: CountryKey, count: Int)] = []
    private(set) var referrers: [(key: ReferrerKey, count: Int)] = []
    private(set) var opens: [(key: OpenKey, count: Int)] = []
    /// Clicks that got an arm (a link with `variants`): none for most batches.
    private(set) var variants: [(key: VariantKey, count: Int)] = []
    private var clickIndex: [ClickKey: Int] = [:]
    private var countryIndex: [CountryKey: Int] = [:]
    private var referrerIndex: [ReferrerKey: Int] = [:]
    private var openIndex: [OpenKey: Int] = [:]
    private var variantIndex: [VariantKey: Int] = [:]
    /// Leads and sales of the batch: a handful of keys (their links' days), by hash.
    private(set) var conversions: [ConversionKey: ConversionSum] = [:]
    /// The same leads and sales by the arm of their click, for those whose click had one.
    private(set) var variantConversions: [VariantConversionKey: ConversionSum] = [:]

    /// Countries, referrers and arms are counted with clicks: no click rows, none of
    /// theirs; an arm's conversion is one of `conversions` too.
    var isEmpty: Bool { clicks.isEmpty && opens.isEmpty && conversions.isEmpty }

    /// No click, country or open row (conversions aside): the part the visit path writes.
    var hasNoVisitCounts: Bool { clicks.isEmpty && opens.isEmpty }

    /// Opens and nothing else (a batch of the resolver's).
    var hasOpensOnly: Bool { clicks.isEmpty && countries.isEmpty && referrers.isEmpty && !opens.isEmpty }

    /// The UTC day (days since the epoch) that holds `milliseconds`; floors negative times too.
    static func day(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / dayMilliseconds : (milliseconds + 1) / dayMilliseconds - 1
    }

    mutating func addClick(
        linkId: String, at: Int64, platform: VisitorPlatform, kind: ClickKind, inAppBrowser: String?,
        country: String?, referrer: String? = nil, variant: Int? = nil
    ) {
        let day = Self.day(at)
        Self.add(
            ClickKey(linkId: linkId, day: day, platform: platform, kind: kind, inAppBrowser: inAppBrowser ?? ""),
            to: &clicks, index: &clickIndex)
        Self.add(CountryKey(linkId: linkId, day: day, country: country ?? ""), to: &countries, index: &countryIndex)
        // Only clicks with a site: "none" is the link's clicks less these (most visits,
        // app to app, name none, and would cost a row and an upsert each batch for nothing).
        if let referrer {
            Self.add(ReferrerKey(linkId: linkId, day: day, referrer: referrer), to: &referrers, index: &referrerIndex)
        }
        if let variant {
            Self.add(VariantKey(linkId: linkId, day: day, variant: variant), to: &variants, index: &variantIndex)
        }
    }

    mutating func addOpen(linkId: String, at: Int64, matchedBy: MatchType, firstOpen: Bool) {
        let key = OpenKey(linkId: linkId, day: Self.day(at), matchedBy: matchedBy, firstOpen: firstOpen)
        Self.add(key, to: &opens, index: &openIndex)
    }

    /// A lead or sale of a link, on the UTC day it occurred (`occurredAt`, not the day it
    /// was recorded: a sale sent late counts on its own day).
    mutating func addConversion(_ event: ConversionEvent) {
        guard let linkId = event.linkId else { return }
        let sale = event.type == .sale
        let key = ConversionKey(
            linkId: linkId, day: Self.day(event.occurredAt), type: event.type,
            currency: sale ? (event.currency ?? "") : "")
        conversions[key, default: ConversionSum(count: 0, amount: 0)].count += 1
        if sale { conversions[key]!.amount += Int128(event.amount ?? 0) }
        guard let variant = event.variant else { return }
        let armKey = VariantConversionKey(
            linkId: linkId, day: key.day, variant: variant, type: key.type, currency: key.currency)
        variantConversions[armKey, default: ConversionSum(count: 0, amount: 0)].count += 1
        if sale { variantConversions[armKey]!.amount += Int128(event.amount ?? 0) }
    }

    /// One more of `key`: the last row, else a scan of the few rows, else the hash index
    /// (made when the rows first reach `indexedFrom`).
    private static func add<Key: Hashable>(
        _ key: Key, to rows: inout [(key: Key, count: Int)], index: inout [Key: Int]
    ) {
        if rows.count < indexedFrom {
            var i = rows.count - 1
            while i >= 0 {
                if rows[i].key == key {
                    rows[i].count += 1
                    return
                }
                i -= 1
            }
            rows.append((key, 1))
            if rows.count == indexedFrom {
                for (j, row) in rows.enumerated() { index[row.key] = j }
            }
            return
        }
        if let last = rows.indices.last, rows[last].key == key {
            rows[last].count += 1
        } else if let i = index[key] {
            rows[i].count += 1
        } else {
            index[key] = rows.count
            rows.append((key, 1))
        }
    }

    mutating func removeAll() {
        if !clicks.isEmpty { clicks.removeAll(keepingCapacity: true) }
        if !clickIndex.isEmpty { clickIndex.removeAll(keepingCapacity: true) }
        if !countries.isEmpty { countries.removeAll(keepingCapacity: true) }
        if !countryIndex.isEmpty { countryIndex.removeAll(keepingCapacity: true) }
        if !referrers.isEmpty { referrers.removeAll(keepingCapacity: true) }
        if !referrerIndex.isEmpty { referrerIndex.removeAll(keepingCapacity: true) }
        if !opens.isEmpty { opens.removeAll(keepingCapacity: true) }
        if !openIndex.isEmpty { openIndex.removeAll(keepingCapacity: true) }
        if !variants.isEmpty { variants.removeAll(keepingCapacity: true) }
        if !variantIndex.isEmpty { variantIndex.removeAll(keepingCapacity: true) }
        if !conversions.isEmpty { conversions.removeAll(keepingCapacity: true) }
        if !variantConversions.isEmpty { variantConversions.removeAll(keepingCapacity: true) }
    }

    /// The click rows in key order (link, day, platform, kind, browser): two PostgreSQL
    /// writers adding to the same rows lock them in the same order.
    var sortedClicks: [(key: ClickKey, count: Int)] {
        clicks.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId < y.linkId }
            if x.day != y.day { return x.day < y.day }
            if x.platform != y.platform { return x.platform.rawValue < y.platform.rawValue }
            if x.kind != y.kind { return x.kind.rawValue < y.kind.rawValue }
            return x.inAppBrowser < y.inAppBrowser
        }
    }

    /// The country rows in key order (link, day, country).
    var sortedCountries: [(key: CountryKey, count: Int)] {
        countries.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId < y.linkId }
            if x.day != y.day { return x.day < y.day }
            return x.country < y.country
        }
    }

    /// The referrer rows in key order (link, day, site), byte order as PostgreSQL's `"C"`.
    var sortedReferrers: [(key: ReferrerKey, count: Int)] {
        referrers.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId.utf8.lexicographicallyPrecedes(y.linkId.utf8) }
            if x.day != y.day { return x.day < y.day }
            return x.referrer.utf8.lexicographicallyPrecedes(y.referrer.utf8)
        }
    }

    /// The open rows in key order (link, day, match type, first-open flag).
    var sortedOpens: [(key: OpenKey, count: Int)] {
        opens.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId < y.linkId }
            if x.day != y.day { return x.day < y.day }
            if x.matchedBy != y.matchedBy { return x.matchedBy.rawValue < y.matchedBy.rawValue }
            return !x.firstOpen && y.firstOpen
        }
    }

    /// The conversion rows in key order (link, day, type, currency): the PostgreSQL
    /// writers upsert them at the end of a batch, after every job took its customer
    /// locks, all in this one order, so that they wait for each other, never deadlock.
    var sortedConversions: [(key: ConversionKey, sum: ConversionSum)] {
        conversions.map { (key: $0.key, sum: $0.value) }.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId.utf8.lexicographicallyPrecedes(y.linkId.utf8) }
            if x.day != y.day { return x.day < y.day }
            if x.type != y.type { return x.type.rawValue < y.type.rawValue }
            return x.currency.utf8.lexicographicallyPrecedes(y.currency.utf8)
        }
    }

    /// The arms' click rows in key order (link, day, arm).
    var sortedVariants: [(key: VariantKey, count: Int)] {
        variants.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId.utf8.lexicographicallyPrecedes(y.linkId.utf8) }
            if x.day != y.day { return x.day < y.day }
            return x.variant < y.variant
        }
    }

    /// The arms' conversion rows in key order (link, day, arm, type, currency), written
    /// after `sortedConversions` for the same reason.
    var sortedVariantConversions: [(key: VariantConversionKey, sum: ConversionSum)] {
        variantConversions.map { (key: $0.key, sum: $0.value) }.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.linkId != y.linkId { return x.linkId.utf8.lexicographicallyPrecedes(y.linkId.utf8) }
            if x.day != y.day { return x.day < y.day }
            if x.variant != y.variant { return x.variant < y.variant }
            if x.type != y.type { return x.type.rawValue < y.type.rawValue }
            return x.currency.utf8.lexicographicallyPrecedes(y.currency.utf8)
        }
    }

    static func == (a: LinkCounter, b: LinkCounter) -> Bool {
        a.clicks.elementsEqual(b.clicks) { $0.key == $1.key && $0.count == $1.count }
            && a.countries.elementsEqual(b.countries) { $0.key == $1.key && $0.count == $1.count }
            && a.referrers.elementsEqual(b.referrers) { $0.key == $1.key && $0.count == $1.count }
            && a.opens.elementsEqual(b.opens) { $0.key == $1.key && $0.count == $1.count }
            && a.variants.elementsEqual(b.variants) { $0.key == $1.key && $0.count == $1.count }
            && a.conversions == b.conversions && a.variantConversions == b.variantConversions
    }
}
