import Core
import Model
import Store

/// `GET /api/v1/mobile-apps/{id}/analytics`: the Mobile App page's numbers for the
/// last N days. Every bucket is present (zero when nothing happened), so clients
/// need no defaults.
enum AnalyticsJSON {
    static let recentEvents = 50

    static func render(app: String, days: Int, since: Int64, until: Int64, analytics a: AppAnalytics) -> JSONValue {
        let byKind: [(String, JSONValue)] = ClickKind.allCases.map { kind in
            (kind.rawValue, .int(Int64(a.clicks.filter { $0.kind == kind }.reduce(0) { $0 + $1.count })))
        }
        let byPlatform: [(String, JSONValue)] = VisitorPlatform.allCases.map { platform in
            (platform.rawValue, .int(Int64(a.clicks.filter { $0.platform == platform }.reduce(0) { $0 + $1.count })))
        }
        let clickRows: [JSONValue] = a.clicks.map {
            .object([
                ("platform", .string($0.platform.rawValue)), ("kind", .string($0.kind.rawValue)),
                ("count", .int(Int64($0.count))),
            ])
        }
        let byMatch: [(String, JSONValue)] = MatchType.allCases.map { match in
            (match.rawValue, .int(Int64(a.opens.filter { $0.matchedBy == match }.reduce(0) { $0 + $1.count })))
        }
        let openRows: [JSONValue] = a.opens.map {
            .object([
                ("matchedBy", .string($0.matchedBy.rawValue)), ("firstOpen", .bool($0.firstOpen)),
                ("count", .int(Int64($0.count))),
            ])
        }
        let recent: [JSONValue] = a.recent.map { e in
            .object([
                ("id", .string(e.id)), ("matchedBy", .string(e.matchedBy.rawValue)),
                ("confidence", .string(e.confidence.rawValue)), ("firstOpen", .bool(e.firstOpen)),
                ("platform", .string(e.platform.rawValue)), ("sdkVersion", .string(e.sdkVersion)),
                ("linkId", .string(orNull: e.linkId)), ("at", ResourceJSON.time(e.at)),
            ])
        }
        let clickTotal = a.clicks.reduce(0) { $0 + $1.count }
        let openTotal = a.opens.reduce(0) { $0 + $1.count }
        let firstOpens = a.opens.filter(\.firstOpen).reduce(0) { $0 + $1.count }
        return .object([
            ("appId", .string(app)), ("days", .int(Int64(days))), ("since", ResourceJSON.time(since)),
            ("until", ResourceJSON.time(until)),
            (
                "clicks",
                .object([
                    ("total", .int(Int64(clickTotal))), ("byKind", .object(byKind)),
                    ("byPlatform", .object(byPlatform)), ("breakdown", .array(clickRows)),
                ])
            ),
            (
                "opens",
                .object([
                    ("total", .int(Int64(openTotal))), ("firstOpens", .int(Int64(firstOpens))),
                    ("byMatchType", .object(byMatch)), ("breakdown", .array(openRows)),
                ])
            ),
            ("recentEvents", .array(recent)),
        ])
    }
}
