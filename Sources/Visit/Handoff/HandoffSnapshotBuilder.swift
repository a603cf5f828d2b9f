import Core
import Model

/// Turns a visit of a mobile-enabled link into what the store keeps: the snapshot of
/// the link's mobile payload at this instant, and the handoff that carries it.
///
/// A snapshot is a copy: later edits of the link never change it (seed 002, "Snapshot
/// behavior"); a new click gets the new configuration.
public enum HandoffSnapshotBuilder {
    /// The path of the handoff URL, reserved on every domain (excluded from the AASA).
    public static let handoffPath = "/m/handoff"

    /// The snapshot of `link` with the visit's captured dynamic values, or nil when the
    /// link is not mobile-enabled.
    ///
    /// - Parameter dynamic: the output of `DynamicValues.capture(query:allowed:)` for
    ///   this link's `dynamicKeys`.
    public static func snapshot(link: Link, dynamic: [(String, String)]) -> HandoffSnapshot? {
        guard let mobile = link.mobile else { return nil }
        return HandoffSnapshot(
            linkId: link.id, shortUrl: link.shortUrl, route: mobile.route,
            referralCode: DynamicValues.referralCode(static: mobile.referralCode, dynamic: dynamic),
            mobile: mobile, dynamic: dynamic)
    }

    /// Convenience: capture the query's allowed values and snapshot in one step.
    public static func snapshot(link: Link, query: Substring?) -> HandoffSnapshot? {
        guard let mobile = link.mobile else { return nil }
        return snapshot(link: link, dynamic: DynamicValues.capture(query: query, allowed: mobile.dynamicKeys))
    }

    /// The URL the Deep View copies: `https://<domain>/m/handoff?biqli_token=<token>`.
    /// The iOS SDK parses the pasted text as exactly this URL, so nothing is added
    /// around it (the token's alphabet needs no escaping).
    public static func handoffURL(domain: String, token: String) -> String {
        "https://" + domain + handoffPath + "?" + PlayReferrer.tokenKey + "=" + token
    }

    /// The handoff record for a fresh `token`: hashed, bound to the click, expiring
    /// after the app's handoff lifetime.
    ///
    /// - Parameter now: milliseconds since the epoch (the click's time).
    public static func handoff(
        token: String, clickId: String, app: MobileApp, platform: Platform, snapshot: HandoffSnapshot, now: Int64
    ) -> Handoff {
        Handoff(
            tokenHash: HandoffToken.hash(token), clickId: clickId, appId: app.id, platform: platform,
            snapshot: snapshot, createdAt: now, expiresAt: now + Int64(app.handoffLifetimeSeconds) * 1000)
    }
}
