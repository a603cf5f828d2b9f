import Core
import Model
import Store

/// A link's clicks and opens over its last `days` UTC days, today included, as every
/// reader of them wants it: each day and each fixed bucket present (zero when nothing
/// happened), the open-ended ones (in-app browsers, countries) ordered by count.
/// Leads, sales and revenue come from the daily conversion counts (schema 12), and the
/// totals of the previous period of the same length from the same read (2N days).
/// Built from the store's per-link daily counts (`StoreReader.linkAnalytics`), so that it
/// costs the same with ten million clicks as with ten. The API renders it as JSON
/// (`LinkAnalyticsJSON`), the operator console as tables and charts.
public struct LinkAnalyticsReport: Sendable, Equatable {
    public static let platforms = VisitorPlatform.allCases
    public static let kinds = ClickKind.allCases
    public static let matchTypes = MatchType.allCases

    /// Days since the epoch of the first day (UTC).
    public let firstDay: Int64
    public let days: Int
    /// Per day (oldest first), clicks per platform in `platforms` order.
    public let clicksByDay: [[Int]]
    /// Clicks per kind in `kinds` order.
    public let kindTotals: [Int]
    /// `none` (a regular browser) first, then the tags seen, most first, then by name.
    public let inAppBrowsers: [(name: String, count: Int)]
    /// `unknown` first, then the country codes seen, most first, then by code.
    public let countries: [(name: String, count: Int)]
    /// `none` (no referring site) first, then the sites seen, most first, then by name.
    public let referrers: [(name: String, count: Int)]
    /// Per day (oldest first), opens per match type in `matchTypes` order.
    public let opensByDay: [[Int]]
    public let firstOpens: Int
    /// Per day (oldest first), the leads and the sales that occurred, and the sales'
    /// amounts by currency (minor units, 128 bits: decision 0029).
    public let leadsByDay: [Int]
    public let salesByDay: [Int]
    public let revenueByDay: [[String: Int128]]
    /// The period's totals, and those of the `days` days before it (read with it, when
    /// the counts given reach back that far).
    public let totals: PeriodTotals
    public let previous: PeriodTotals
    /// The period's totals per arm of the link's A/B test (its clicks, and the leads and
    /// sales that reached it through their click), every arm seen in the period, by arm;
    /// empty for a link none of whose clicks in the period got an arm.
    public let variants: [VariantTotals]

    public init(firstDay: Int64, days: Int, counts: LinkAnalytics) {
        let platforms = Self.platforms
        let kinds = Self.kinds
        let matches = Self.matchTypes
        let dayRange = firstDay..<(firstDay + Int64(days))
        var platformsByDay = [[Int]](repeating: [Int](repeating: 0, count: platforms.count), count: days)
        var kindTotals = [Int](repeating: 0, count: kinds.count)
        var browsers: [String: Int] = [:]
        for c in counts.clicks where dayRange.contains(c.day) {
            platformsByDay[Int(c.day - firstDay)][platforms.firstIndex(of: c.platform) ?? 0] += c.count
            kindTotals[kinds.firstIndex(of: c.kind) ?? 0] += c.count
            browsers[c.inAppBrowser ?? "none", default: 0] += c.count
        }
        var countries: [String: Int] = [:]
        for c in counts.countries where dayRange.contains(c.day) {
            countries[c.country ?? "unknown", default: 0] += c.count
        }
        // Only clicks with a site are counted by site: `none` is the rest of the clicks.
        var referrers: [String: Int] = [:]
        for r in counts.referrers where dayRange.contains(r.day) {
            if let site = r.referrer { referrers[site, default: 0] += r.count }
        }
        let clickTotal = platformsByDay.reduce(0) { $0 + $1.reduce(0, +) }
        referrers["none"] = max(0, clickTotal - referrers.values.reduce(0, +))
        var matchesByDay = [[Int]](repeating: [Int](repeating: 0, count: matches.count), count: days)
        var firstOpens = 0
        for o in counts.opens where dayRange.contains(o.day) {
            matchesByDay[Int(o.day - firstDay)][matches.firstIndex(of: o.matchedBy) ?? 0] += o.count
            if o.firstOpen { firstOpens += o.count }
        }
        self.firstDay = firstDay
        self.days = days
        self.clicksByDay = platformsByDay
        self.kindTotals = kindTotals
        self.inAppBrowsers = Self.ordered(browsers, first: "none")
        self.countries = Self.ordered(countries, first: "unknown")
        self.referrers = Self.ordered(referrers, first: "none")
        self.opensByDay = matchesByDay
        self.firstOpens = firstOpens
        var leads = [Int](repeating: 0, count: days)
        var sales = [Int](repeating: 0, count: days)
        var revenue = [[String: Int128]](repeating: [:], count: days)
        for c in counts.conversions where dayRange.contains(c.day) {
            let i = Int(c.day - firstDay)
            switch c.type {
            case .lead: leads[i] += c.count
            case .sale:
                sales[i] += c.count
                if let currency = c.currency { revenue[i][currency, default: 0] += c.amount }
            }
        }
        self.leadsByDay = leads
        self.salesByDay = sales
        self.revenueByDay = revenue
        self.totals = PeriodTotals(counts, days: dayRange)
        self.previous = PeriodTotals(counts, days: (firstDay - Int64(days))..<firstDay)
        self.variants = Self.variantTotals(counts, days: dayRange)
    }

    /// The arms seen in `days` (a click or a conversion of theirs), by arm.
    static func variantTotals(_ counts: LinkAnalytics, days: Range<Int64>) -> [VariantTotals] {
        var arms: [Int: VariantTotals] = [:]
        for c in counts.variantClicks where days.contains(c.day) {
            arms[c.variant, default: VariantTotals(arm: c.variant)].clicks += c.count
        }
        for c in counts.variantConversions where days.contains(c.day) {
            var arm = arms[c.variant] ?? VariantTotals(arm: c.variant)
            switch c.type {
            case .lead: arm.leads += c.count
            case .sale:
                arm.sales += c.count
                if let currency = c.currency { arm.revenue[currency, default: 0] += c.amount }
            }
            arms[c.variant] = arm
        }
        return arms.values.sorted { $0.arm < $1.arm }
    }

    /// `none` and the `limit` sites with the most clicks; the others' clicks summed as
    /// `other` (present only when there are others). Sites have a dot or brackets
    /// (`ReferringSite`), so neither name is a site's.
    public func topReferrers(_ limit: Int) -> [(name: String, count: Int)] {
        guard referrers.count > limit + 1 else { return referrers }
        let rest = referrers[(limit + 1)...].reduce(0) { $0 + $1.count }
        return Array(referrers.prefix(limit + 1)) + [("other", rest)]
    }

    /// The period's currencies (sales in them), in code order.
    public var currencies: [String] { totals.revenue.keys.sorted() }

    /// Clicks (without preview bots) -> leads -> sales over the period.
    public var funnel: ConversionFunnel {
        let bots = Self.kinds.firstIndex(of: .previewBot).map { kindTotals[$0] } ?? 0
        return ConversionFunnel(clicks: clickTotal - bots, leads: totals.leads, sales: totals.sales)
    }

    /// Clicks per platform over the whole period, in `platforms` order.
    public var platformTotals: [Int] { Self.columnTotals(clicksByDay, width: Self.platforms.count) }
    /// Opens per match type over the whole period, in `matchTypes` order.
    public var matchTotals: [Int] { Self.columnTotals(opensByDay, width: Self.matchTypes.count) }
    public var clickTotal: Int { platformTotals.reduce(0, +) }
    public var openTotal: Int { matchTotals.reduce(0, +) }

    /// The UTC day of row `index` (days since the epoch).
    public func day(_ index: Int) -> Int64 { firstDay + Int64(index) }

    /// `2026-11-29`: the UTC date of a day since the epoch.
    public static func date(_ day: Int64) -> String {
        String(Timestamp.format(seconds: day * 86_400).prefix(10))
    }

    public static func == (a: LinkAnalyticsReport, b: LinkAnalyticsReport) -> Bool {
        a.firstDay == b.firstDay && a.days == b.days && a.clicksByDay == b.clicksByDay && a.kindTotals == b.kindTotals
            && a.inAppBrowsers.elementsEqual(b.inAppBrowsers, by: ==) && a.countries.elementsEqual(b.countries, by: ==)
            && a.referrers.elementsEqual(b.referrers, by: ==)
            && a.opensByDay == b.opensByDay && a.firstOpens == b.firstOpens && a.leadsByDay == b.leadsByDay
            && a.salesByDay == b.salesByDay && a.revenueByDay == b.revenueByDay && a.totals == b.totals
            && a.previous == b.previous && a.variants == b.variants
    }

    private static func columnTotals(_ rows: [[Int]], width: Int) -> [Int] {
        (0..<width).map { i in rows.reduce(0) { $0 + $1[i] } }
    }

    /// `first` (`none`, `unknown`) always and first, then the others by count, most
    /// first, then by name.
    private static func ordered(_ counts: [String: Int], first: String) -> [(name: String, count: Int)] {
        let others = counts.filter { $0.key != first }.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
        }
        return [(first, counts[first] ?? 0)] + others.map { ($0.key, $0.value) }
    }
}
