import Core
import Store

/// What an open resolved to, when it resolved to a link.
struct Match: Sendable {
    var matchedBy: MatchType
    var clickId: String?
    var linkId: String
    var shortUrl: String
    var route: String
    var referralCode: String?
    var metadata: JSONValue
    var dynamic: [(String, String)]

    /// A handoff's click-time snapshot (exact handoff or install referrer).
    static func handoff(_ h: Handoff, matchedBy: MatchType) -> Match {
        let s = h.snapshot
        return Match(
            matchedBy: matchedBy, clickId: h.clickId, linkId: s.linkId, shortUrl: s.shortUrl, route: s.route,
            referralCode: s.referralCode, metadata: s.metadata, dynamic: s.dynamic)
    }

    /// A link's current payload with the given dynamic values (app link, probabilistic).
    static func current(
        _ link: Link, payload: MobilePayload, matchedBy: MatchType, clickId: String?, dynamic: [(String, String)]
    ) -> Match {
        Match(
            matchedBy: matchedBy, clickId: clickId, linkId: link.id, shortUrl: link.shortUrl, route: payload.route,
            referralCode: DynamicValues.referralCode(static: payload.referralCode, dynamic: dynamic),
            metadata: payload.metadata, dynamic: dynamic)
    }
}
