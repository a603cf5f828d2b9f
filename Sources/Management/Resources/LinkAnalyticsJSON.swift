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
                    ("daily", .array(clickDays)),
                ])
            ),
            (
                "opens",
                .object([
                    ("total", int(matchTotals.reduce(0, +))), ("firstOpens", int(report.firstOpens)),
                    ("byMatchType", counters(matchNames, matchTotals)),
                    ("daily", .array(openDays)),
                ])
            ),
        ])
    }

    /// `2026-11-29`: the UTC date of a day since the epoch.
    static func date(_ day: Int64) -> String { LinkAnalyticsReport.date(day) }

    private static func int(_ n: Int) -> JSONValue { .int(Int64(n)) }

    private static func counters(_ names: [String], _ values: [Int]) -> JSONValue {
        .object(zip(names, values).map { ($0, int($1)) })
    }
}
