import Core
import Model
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

    /// `jti`: one receipt per live open (replays carry none), so the open's ULID is unique here too.
    var tokenId: String { "rcpt_" + openId.dropFirst(Identifier.openPrefix.count) }

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
    }

    /// The payload's JSON bytes, members in the documented order. Each member's
    /// comma and name are one constant: one append instead of four.
    var json: [UInt8] {
        var j = JSONBuffer(capacity: 600)
        j.raw(#"{"iss":"#)
        j.string(issuer)
        j.raw(#","sub":"#)
        j.string(appInstanceId)
        j.raw(#","aud":"#)
        j.string(appId)
        j.raw(#","iat":"#)
        j.int(issuedAt)
        j.raw(#","exp":"#)
        j.int(expiresAt)
        // `tokenId` without building it, when the open id is ours (prefix, then a ULID).
        var open = openId
        let wroteTokenId = open.withUTF8 { u -> Bool in
            let prefix: StaticString = "biq_open_"  // `Identifier.openPrefix`, as a constant
            guard u.count > prefix.utf8CodeUnitCount, SafeText.hasPrefix(u, prefix) else { return false }
            let ulid = UnsafeBufferPointer(rebasing: u[prefix.utf8CodeUnitCount...])
            guard JSONBuffer.needsNoEscape(ulid) else { return false }
            j.raw(#","jti":"rcpt_"#)
            j.bytes.append(contentsOf: ulid)
            j.raw(#"""#)
            return true
        }
        if !wroteTokenId {
            j.raw(#","jti":"#)
            j.string(tokenId)
        }
        j.raw(#","openId":"#)
        j.string(openId)
        j.raw(#","eventId":"#)
        j.string(eventId)
        j.raw(#","platform":"#)
        j.string(platform.rawValue)
        j.raw(#","firstOpen":"#)
        j.bool(firstOpen)
        j.raw(#","matchedBy":"#)
        j.string(matchedBy.rawValue)
        j.raw(#","confidence":"#)
        j.string(matchedBy.confidence.rawValue)
        j.raw(#","linkId":"#)
        j.string(linkId)
        j.raw(#","clickId":"#)
        j.string(orNull: clickId)
        j.raw(#","referralCode":"#)
        j.string(orNull: referralCode)
        j.raw("}")
        return j.bytes
    }
}
