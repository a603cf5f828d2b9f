import Core

/// A handoff as the resolver's claim returns it (`StoreTransaction.claimHandoff`):
/// the row without its claim, the click-time metadata as the stored JSON text
/// rather than a parsed `JSONValue`, because the resolver only copies it into a
/// response.
public struct HandoffView: Sendable {
    public var clickId: String
    public var appId: String
    public var platform: Platform
    public var linkId: String
    public var shortUrl: String
    public var route: String
    public var referralCode: String?
    /// Compact JSON (as `Core.JSONWriter` writes it), normally an object.
    public var metadataJSON: [UInt8]
    public var dynamic: [(String, String)]
    public var createdAt: Int64
    public var expiresAt: Int64

    public init(
        clickId: String, appId: String, platform: Platform, linkId: String, shortUrl: String, route: String,
        referralCode: String?, metadataJSON: [UInt8], dynamic: [(String, String)], createdAt: Int64, expiresAt: Int64
    ) {
        self.clickId = clickId
        self.appId = appId
        self.platform = platform
        self.linkId = linkId
        self.shortUrl = shortUrl
        self.route = route
        self.referralCode = referralCode
        self.metadataJSON = metadataJSON
        self.dynamic = dynamic
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The view of a full handoff (its metadata written the way the store writes it).
    public init(_ h: Handoff) {
        let s = h.snapshot
        self.init(
            clickId: h.clickId, appId: h.appId, platform: h.platform, linkId: s.linkId, shortUrl: s.shortUrl,
            route: s.route, referralCode: s.referralCode, metadataJSON: JSONWriter().bytes(s.metadata),
            dynamic: s.dynamic, createdAt: h.createdAt, expiresAt: h.expiresAt)
    }
}
