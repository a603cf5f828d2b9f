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
        // One receipt per live open (replays carry none), so the open's ULID is unique here too.
        self.tokenId = "rcpt_" + openId.dropFirst(Identifier.openPrefix.count)
    }

    /// The payload's JSON bytes, members in the documented order.
    var json: [UInt8] {
        var j = JSONBuffer(capacity: 600)
        j.raw("{")
        j.key("iss")
        j.string(issuer)
        j.comma()
        j.key("sub")
        j.string(appInstanceId)
        j.comma()
        j.key("aud")
        j.string(appId)
        j.comma()
        j.key("iat")
        j.int(issuedAt)
        j.comma()
        j.key("exp")
        j.int(expiresAt)
        j.comma()
        j.key("jti")
        j.string(tokenId)
        j.comma()
        j.key("openId")
        j.string(openId)
        j.comma()
        j.key("eventId")
        j.string(eventId)
        j.comma()
        j.key("platform")
        j.string(platform.rawValue)
        j.comma()
        j.key("firstOpen")
        j.bool(firstOpen)
        j.comma()
        j.key("matchedBy")
        j.string(matchedBy.rawValue)
        j.comma()
        j.key("confidence")
        j.string(matchedBy.confidence.rawValue)
        j.comma()
        j.key("linkId")
        j.string(linkId)
        j.comma()
        j.key("clickId")
        j.string(orNull: clickId)
        j.comma()
        j.key("referralCode")
        j.string(orNull: referralCode)
        j.raw("}")
        return j.bytes
    }
}
