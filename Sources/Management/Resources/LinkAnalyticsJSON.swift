import Core
import Model
import Store

/// The answer of `GET /api/v1/links/{id}/analytics`: totals for the period and one entry
/// per UTC day, oldest first, every day and every fixed bucket present (zero when nothing
/// happened), so that clients need no defaults and can convert days to their own zone.
/// In-app browsers and countries are open-ended: only those seen are listed, besides
/// `none` and `unknown`.
enum LinkAnalyticsJSON {
    static let platforms = VisitorPlatform.allCases
    static let kinds = ClickKind.allCases
    static let matches = MatchType.allCases
    static let platformNames = platforms.map(\.rawValue)
    static let kindNames = kinds.map(\.rawValue)
    static let matchNames = matches.map(\.rawValue)

    static func render(link: Link, firstDay: Int64, days: Int, now: Int64, counts: LinkAnalytics) -> JSONValue {
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
        var matchesByDay = [[Int]](repeating: [Int](repeating: 0, count: matches.count), count: days)
        var firstOpens = 0
        for o in counts.opens where dayRange.contains(o.day) {
            matchesByDay[Int(o.day - firstDay)][matches.firstIndex(of: o.matchedBy) ?? 0] += o.count
            if o.firstOpen { firstOpens += o.count }
        }

        let platformTotals = (0..<platforms.count).map { i in platformsByDay.reduce(0) { $0 + $1[i] } }
        let matchTotals = (0..<matches.count).map { i in matchesByDay.reduce(0) { $0 + $1[i] } }
        let clickDays: [JSONValue] = platformsByDay.enumerated().map { i, row in
            .object([
                ("day", .string(date(firstDay + Int64(i)))), ("total", int(row.reduce(0, +))),
                ("byPlatform", counters(platformNames, row)),
            ])
        }
        let openDays: [JSONValue] = matchesByDay.enumerated().map { i, row in
            .object([
                ("day", .string(date(firstDay + Int64(i)))), ("total", int(row.reduce(0, +))),
                ("byMatchType", counters(matchNames, row)),
            ])
        }
        return .object([
            ("linkId", .string(link.id)), ("shortUrl", .string(link.shortUrl)), ("days", int(days)),
            ("since", ResourceJSON.time(firstDay * LinkAnalytics.dayMilliseconds)), ("until", ResourceJSON.time(now)),
            (
                "clicks",
                .object([
                    ("total", int(platformTotals.reduce(0, +))),
                    ("byPlatform", counters(platformNames, platformTotals)),
                    ("byKind", counters(kindNames, kindTotals)),
                    ("byInAppBrowser", openCounters(browsers, first: "none")),
                    ("byCountry", openCounters(countries, first: "unknown")),
                    ("daily", .array(clickDays)),
                ])
            ),
            (
                "opens",
                .object([
                    ("total", int(matchTotals.reduce(0, +))), ("firstOpens", int(firstOpens)),
                    ("byMatchType", counters(matchNames, matchTotals)),
                    ("daily", .array(openDays)),
                ])
            ),
        ])
    }

    /// `2026-11-29`: the UTC date of a day since the epoch.
    static func date(_ day: Int64) -> String {
        String(Timestamp.format(seconds: day * 86_400).prefix(10))
    }

    private static func int(_ n: Int) -> JSONValue { .int(Int64(n)) }

    private static func counters(_ names: [String], _ values: [Int]) -> JSONValue {
        .object(zip(names, values).map { ($0, int($1)) })
    }

    /// `first` (`none`, `unknown`) always and first, then the others by count, most
    /// first, then by name.
    private static func openCounters(_ counts: [String: Int], first: String) -> JSONValue {
        let others = counts.filter { $0.key != first }.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
        }
        return .object([(first, int(counts[first] ?? 0))] + others.map { ($0.key, int($0.value)) })
    }
}
