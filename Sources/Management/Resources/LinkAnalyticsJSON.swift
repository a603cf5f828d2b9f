import Core
import Model
import Store

/// The answer of `GET /api/v1/links/{id}/analytics`: totals for the period and one entry
/// per UTC day, oldest first, every day and every fixed bucket present (zero when nothing
/// happened), so that clients need no defaults and can convert days to their own zone.
/// In-app browsers and countries are open-ended: only those seen are listed, besides
/// `none` and `unknown`.
enum LinkAnalyticsJSON {
    static let platformNames = LinkAnalyticsReport.platforms.map(\.rawValue)
    static let kindNames = LinkAnalyticsReport.kinds.map(\.rawValue)
    static let matchNames = LinkAnalyticsReport.matchTypes.map(\.rawValue)
    /// Referring sites named in `byReferrer`; the rest are summed as `other`.
    static let referrerLimit = 50

    static func render(link: Link, report: LinkAnalyticsReport, now: Int64) -> JSONValue {
        let clickDays: [JSONValue] = report.clicksByDay.enumerated().map { i, row in
            .object([
                ("day", .string(date(report.day(i)))), ("total", int(row.reduce(0, +))),
                ("byPlatform", counters(platformNames, row)),
            ])
        }
        let openDays: [JSONValue] = report.opensByDay.enumerated().map { i, row in
            .object([
                ("day", .string(date(report.day(i)))), ("total", int(row.reduce(0, +))),
                ("byMatchType", counters(matchNames, row)),
            ])
        }
        let platformTotals = report.platformTotals
        let matchTotals = report.matchTotals
        return .object([
            ("linkId", .string(link.id)), ("shortUrl", .string(link.shortUrl)), ("days", int(report.days)),
            ("since", ResourceJSON.time(report.firstDay * LinkAnalytics.dayMilliseconds)),
            ("until", ResourceJSON.time(now)),
            (
                "clicks",
                .object([
                    ("total", int(platformTotals.reduce(0, +))),
                    ("byPlatform", counters(platformNames, platformTotals)),
                    ("byKind", counters(kindNames, report.kindTotals)),
                    ("byInAppBrowser", .object(report.inAppBrowsers.map { ($0.name, int($0.count)) })),
                    ("byCountry", .object(report.countries.map { ($0.name, int($0.count)) })),
                    (
                        "byReferrer",
                        .object(report.topReferrers(Self.referrerLimit).map { ($0.name, int($0.count)) })
                    ),
                    ("daily", .array(clickDays)),
                ])
            ),
            (
                "opens",
                .object([
                    ("total", int(matchTotals.reduce(0, +))), ("firstOpens", int(report.firstOpens)),
                    ("installs", int(report.totals.installs)),
                    ("byMatchType", counters(matchNames, matchTotals)),
                    ("daily", .array(openDays)),
                ])
            ),
            ("conversions", conversions(report)),
            ("byVariant", byVariant(link: link, report: report)),
            (
                "previousPeriod",
                .object(
                    [
                        (
                            "since",
                            ResourceJSON.time((report.firstDay - Int64(report.days)) * LinkAnalytics.dayMilliseconds)
                        ),
                        ("until", ResourceJSON.time(report.firstDay * LinkAnalytics.dayMilliseconds)),
                    ] + totals(report.previous))
            ),
        ])
    }

    /// Leads, sales and revenue of the period, the funnel, and one entry per UTC day.
    static func conversions(_ report: LinkAnalyticsReport) -> JSONValue {
        let days: [JSONValue] = report.leadsByDay.indices.map { i in
            .object([
                ("day", .string(date(report.day(i)))), ("leads", int(report.leadsByDay[i])),
                ("sales", int(report.salesByDay[i])), ("revenue", revenue(report.revenueByDay[i])),
            ])
        }
        let funnel = report.funnel
        return .object(
            [
                ("leads", int(report.totals.leads)), ("sales", int(report.totals.sales)),
                ("revenue", revenue(report.totals.revenue)),
                (
                    "funnel",
                    .object([
                        ("clicks", int(funnel.clicks)), ("leads", int(funnel.leads)), ("sales", int(funnel.sales)),
                    ])
                ),
                ("daily", .array(days)),
            ])
    }

    /// One entry per arm of the link's A/B test (decision 0032): each arm the link has now
    /// (zeros when none of its clicks is in the period), then each arm seen in the period
    /// that it no longer has (`url` and `weight` null), by arm. Empty for a link without
    /// variants and none seen.
    static func byVariant(link: Link, report: LinkAnalyticsReport) -> JSONValue {
        let current = link.options?.variants ?? []
        var seen: [Int: VariantTotals] = [:]
        for v in report.variants { seen[v.arm] = v }
        let arms = Set(current.indices).union(seen.keys).sorted()
        return .array(
            arms.map { arm in
                let t = seen[arm] ?? VariantTotals(arm: arm)
                let variant = arm < current.count ? current[arm] : nil
                return .object([
                    ("variant", int(arm)), ("url", variant.map { .string($0.url) } ?? .null),
                    ("weight", variant.map { int($0.weight) } ?? .null), ("clicks", int(t.clicks)),
                    ("leads", int(t.leads)), ("sales", int(t.sales)), ("revenue", revenue(t.revenue)),
                ])
            })
    }

    /// The totals the previous period is compared on.
    static func totals(_ t: PeriodTotals) -> [(String, JSONValue)] {
        [
            ("clicks", int(t.clicks)), ("installs", int(t.installs)), ("leads", int(t.leads)), ("sales", int(t.sales)),
            ("revenue", revenue(t.revenue)),
        ]
    }

    /// Amounts in minor units by currency code, in code order: JSON numbers with every
    /// digit, past 2^63 - 1 too (decision 0029).
    static func revenue(_ amounts: [String: Int128]) -> JSONValue {
        .object(amounts.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })
    }

    /// `2026-11-29`: the UTC date of a day since the epoch.
    static func date(_ day: Int64) -> String { LinkAnalyticsReport.date(day) }

    private static func int(_ n: Int) -> JSONValue { .int(Int64(n)) }

    private static func counters(_ names: [String], _ values: [Int]) -> JSONValue {
        .object(zip(names, values).map { ($0, int($1)) })
    }
}
