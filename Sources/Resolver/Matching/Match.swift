import Core
import Model
import Store

/// What an open resolved to, when it resolved to a link.
struct Match: Sendable {
    var matchedBy: MatchType
    var clickId: String?
    var linkId: String
    var shortUrl: String
    var route: String
    var referralCode: String?
    var metadata: Metadata
    var dynamic: [(String, String)]

    /// A link's metadata (from the link cache), or a handoff's as the store keeps
    /// it: JSON text the response copies without parsing it first.
    enum Metadata: Sendable {
        case value(JSONValue)
        case json([UInt8])
    }

    /// A handoff's click-time snapshot (exact handoff or install referrer).
    static func handoff(_ h: HandoffView, matchedBy: MatchType) -> Match {
        Match(
            matchedBy: matchedBy, clickId: h.clickId, linkId: h.linkId, shortUrl: h.shortUrl, route: h.route,
            referralCode: h.referralCode, metadata: .json(h.metadataJSON), dynamic: h.dynamic)
    }

    /// A link's current payload with the given dynamic values (app link, probabilistic).
    static func current(
        _ link: Link, payload: MobilePayload, matchedBy: MatchType, clickId: String?, dynamic: [(String, String)]
    ) -> Match {
        Match(
            matchedBy: matchedBy, clickId: clickId, linkId: link.id, shortUrl: link.shortUrl, route: payload.route,
            referralCode: DynamicValues.referralCode(static: payload.referralCode, dynamic: dynamic),
            metadata: .value(payload.metadata), dynamic: dynamic)
    }
}
