import Core

/// What a deferred deep link resolves to: the link's mobile payload as it was at
/// click time. Later edits of the link never change an existing snapshot.
public struct HandoffSnapshot: Sendable, Equatable {
    public var linkId: String
    public var shortUrl: String
    public var route: String
    /// The static referral code, else an allowed dynamic `ref`, else nil.
    public var referralCode: String?
    public var metadata: JSONValue {
        didSet { metadataJSON = MetadataEncoding.bytes(metadata) }
    }
    /// `metadata` as stored: the link's own encoding when made from its payload.
    public private(set) var metadataJSON: [UInt8]
    public var dynamic: [(String, String)]

    public init(
        linkId: String, shortUrl: String, route: String, referralCode: String?, metadata: JSONValue,
        dynamic: [(String, String)]
    ) {
        self.init(
            linkId: linkId, shortUrl: shortUrl, route: route, referralCode: referralCode, metadata: metadata,
            metadataJSON: MetadataEncoding.bytes(metadata), dynamic: dynamic)
    }

    /// The snapshot of a link's mobile payload: its metadata and their encoding as
    /// they are now (the visit path's snapshot, which the writer stores as is).
    public init(
        linkId: String, shortUrl: String, route: String, referralCode: String?, mobile: MobilePayload,
        dynamic: [(String, String)]
    ) {
        self.init(
            linkId: linkId, shortUrl: shortUrl, route: route, referralCode: referralCode, metadata: mobile.metadata,
            metadataJSON: mobile.metadataJSON, dynamic: dynamic)
    }

    private init(
        linkId: String, shortUrl: String, route: String, referralCode: String?, metadata: JSONValue,
        metadataJSON: [UInt8], dynamic: [(String, String)]
    ) {
        self.linkId = linkId
        self.shortUrl = shortUrl
        self.route = route
        self.referralCode = referralCode
        self.metadata = metadata
        self.metadataJSON = metadataJSON
        self.dynamic = dynamic
    }

    public static func == (a: HandoffSnapshot, b: HandoffSnapshot) -> Bool {
        a.linkId == b.linkId && a.shortUrl == b.shortUrl && a.route == b.route && a.referralCode == b.referralCode
            && a.metadata == b.metadata && a.dynamic.elementsEqual(b.dynamic, by: ==)
    }
}

/// An opaque, expiring handoff created by a visit. The token (`bqmh_...`) itself is
/// never stored: only its SHA-256 (`tokenHash`).
public struct Handoff: Sendable, Equatable {
    public var tokenHash: [UInt8]
    public var clickId: String
    public var appId: String
    public var platform: Platform
    public var snapshot: HandoffSnapshot
    public var createdAt: Int64
    public var expiresAt: Int64
    /// The app instance that claimed it first, and the open that did.
    public var claimedByInstance: String?
    public var claimedByOpen: String?

    public init(
        tokenHash: [UInt8], clickId: String, appId: String, platform: Platform, snapshot: HandoffSnapshot,
        createdAt: Int64, expiresAt: Int64, claimedByInstance: String? = nil, claimedByOpen: String? = nil
    ) {
        self.tokenHash = tokenHash
        self.clickId = clickId
        self.appId = appId
        self.platform = platform
        self.snapshot = snapshot
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.claimedByInstance = claimedByInstance
        self.claimedByOpen = claimedByOpen
    }
}
