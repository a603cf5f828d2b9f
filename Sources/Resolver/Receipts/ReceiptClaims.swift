import Core
import Store

/// The claims of an attribution receipt (documented in docs/receipts.md).
struct ReceiptClaims: Sendable {
    var issuer: String
    var appId: String
    var appInstanceId: String
    var openId: String
    var eventId: String
    var platform: Platform
    var firstOpen: Bool
    var matchedBy: MatchType
    var linkId: String
    var clickId: String?
    var referralCode: String?
    var issuedAt: Int64
    var expiresAt: Int64
    var tokenId: String

    /// Claims of a live match at `nowMillis`, valid for `lifetimeSeconds`.
    init(
        issuer: String, request: OpenRequest, appId: String, openId: String, match: Match, nowMillis: Int64,
        lifetimeSeconds: Int64
    ) {
        self.issuer = issuer
        self.appId = appId
        self.appInstanceId = request.appInstanceId
        self.openId = openId
        self.eventId = request.eventId
        self.platform = request.platform
        self.firstOpen = request.firstOpen
        self.matchedBy = match.matchedBy
        self.linkId = match.linkId
        self.clickId = match.clickId
        self.referralCode = match.referralCode
        self.issuedAt = nowMillis / 1000
        self.expiresAt = nowMillis / 1000 + lifetimeSeconds
        self.tokenId = "rcpt_" + ULID.make(milliseconds: UInt64(max(0, nowMillis)))
    }

    var json: JSONValue {
        .object([
            ("iss", .string(issuer)),
            ("sub", .string(appInstanceId)),
            ("aud", .string(appId)),
            ("iat", .int(issuedAt)),
            ("exp", .int(expiresAt)),
            ("jti", .string(tokenId)),
            ("openId", .string(openId)),
            ("eventId", .string(eventId)),
            ("platform", .string(platform.rawValue)),
            ("firstOpen", .bool(firstOpen)),
            ("matchedBy", .string(matchedBy.rawValue)),
            ("confidence", .string(matchedBy.confidence.rawValue)),
            ("linkId", .string(linkId)),
            ("clickId", .string(orNull: clickId)),
            ("referralCode", .string(orNull: referralCode)),
        ])
    }
}
