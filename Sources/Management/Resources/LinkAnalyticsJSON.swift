import Core
import Model
import Store

/// The answer of `GET /api/v1/links/{id}/analytics`: totals for the period and one entry
/// per UTC day, oldest first, every day and every fixed bucket present (zero when nothing
/// happened), so that clients need no defaults and can convert days to their own zone.
/// In-app browsers and countries are open-ended: only those seen are listed, besides
/// `none` and `unknown`.
enum LinkAnalyticsJSON {
    static func render(link: Link, firstDay: Int64, days: Int, now: Int64, counts: LinkAnalytics) -> JSONValue {
        let dayRange = firstDay..<(firstDay + Int64(days))
        var platformsByDay = [[Int]](repeating: [Int](repeating: 0, count: VisitorPlatform.allCases.count), count: days)
        var kinds = [Int](repeating: 0, count: ClickKind.allCases.count)
        var browsers: [(String, Int)] = [("none", 0)]
        var countries: [(String, Int)] = [("unknown", 0)]
        for c in counts.clicks where dayRange.contains(c.day) {
            platformsByDay[Int(c.day - firstDay)][index(c.platform)] += c.count
            kinds[index(c.kind)] += c.count
            add(c.count, to: c.inAppBrowser ?? "none", in: &browsers)
            add(c.count, to: c.country ?? "unknown", in: &countries)
        }
        var matchesByDay = [[Int]](repeating: [Int](repeating: 0, count: MatchType.allCases.count), count: days)
        var firstOpens = 0
        for o in counts.opens where dayRange.contains(o.day) {
            matchesByDay[Int(o.day - firstDay)][index(o.matchedBy)] += o.count
            if o.firstOpen { firstOpens += o.count }
        }

        let platformTotals = (0..<VisitorPlatform.allCases.count).map { i in platformsByDay.reduce(0) { $0 + $1[i] } }
        let matchTotals = (0..<MatchType.allCases.count).map { i in matchesByDay.reduce(0) { $0 + $1[i] } }
        let clickDays: [JSONValue] = platformsByDay.enumerated().map { i, row in
            .object([
                ("day", .string(date(firstDay + Int64(i)))), ("total", int(row.reduce(0, +))),
                ("byPlatform", counters(VisitorPlatform.allCases.map(\.rawValue), row)),
            ])
        }
        let openDays: [JSONValue] = matchesByDay.enumerated().map { i, row in
            .object([
                ("day", .string(date(firstDay + Int64(i)))), ("total", int(row.reduce(0, +))),
                ("byMatchType", counters(MatchType.allCases.map(\.rawValue), row)),
            ])
        }
        return .object([
            ("linkId", .string(link.id)), ("shortUrl", .string(link.shortUrl)), ("days", int(days)),
            ("since", ResourceJSON.time(firstDay * LinkAnalytics.dayMilliseconds)), ("until", ResourceJSON.time(now)),
            (
                "clicks",
                .object([
                    ("total", int(platformTotals.reduce(0, +))),
                    ("byPlatform", counters(VisitorPlatform.allCases.map(\.rawValue), platformTotals)),
                    ("byKind", counters(ClickKind.allCases.map(\.rawValue), kinds)),
                    ("byInAppBrowser", .object(sorted(browsers).map { ($0.0, int($0.1)) })),
                    ("byCountry", .object(sorted(countries).map { ($0.0, int($0.1)) })),
                    ("daily", .array(clickDays)),
                ])
            ),
            (
                "opens",
                .object([
                    ("total", int(matchTotals.reduce(0, +))), ("firstOpens", int(firstOpens)),
                    ("byMatchType", counters(MatchType.allCases.map(\.rawValue), matchTotals)),
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

    private static func add(_ n: Int, to name: String, in list: inout [(String, Int)]) {
        if let i = list.firstIndex(where: { $0.0 == name }) {
            list[i].1 += n
        } else {
            list.append((name, n))
        }
    }

    /// The first entry (`none`, `unknown`) first, then by count, most first, then by name.
    private static func sorted(_ list: [(String, Int)]) -> [(String, Int)] {
        [list[0]] + list.dropFirst().sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    }

    private static func index<T: CaseIterable & Equatable>(_ value: T) -> Int {
        T.allCases.firstIndex(of: value).map { T.allCases.distance(from: T.allCases.startIndex, to: $0) } ?? 0
    }
}
