import Core

/// A short link `https://<domain>/<key>` (`biq_lnk_` + ULID).
public struct Link: Sendable, Equatable {
    public var id: String
    /// Hostname of the domain the link lives on.
    public var domain: String
    /// One path segment, `^[A-Za-z0-9_-]{1,64}$`, unique per domain. Matched exactly.
    public var key: String
    /// Web destination (desktop, and mobile when the link is not mobile-enabled).
    public var url: String
    /// A disabled link behaves as unknown and resolves to `none`.
    public var enabled: Bool
    public var mobile: MobilePayload?
    public var preview: LinkPreview?
    /// Conversion tracking: a web redirect carries the click's id to the destination as
    /// `bq_id` (`ClickIdParameter`). Nil follows the domain's default.
    public var trackConversions: Bool?
    /// Rules, variants, UTM, the visitor's query, expiry, tags and an external id (issue
    /// 35); nil for a link with none (`LinkOptions.normalized`).
    public var options: LinkOptions?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: String, domain: String, key: String, url: String, enabled: Bool = true, mobile: MobilePayload? = nil,
        preview: LinkPreview? = nil, trackConversions: Bool? = nil, options: LinkOptions? = nil,
        createdAt: Int64 = 0, updatedAt: Int64 = 0
    ) {
        self.id = id
        self.domain = domain
        self.key = key
        self.url = url
        self.enabled = enabled
        self.mobile = mobile
        self.preview = preview
        self.trackConversions = trackConversions
        self.options = LinkOptions.normalized(options)
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether visits of this link on `domain` hand out click ids: the link's own switch,
    /// else the domain's default.
    public func tracksConversions(on domain: Domain) -> Bool {
        trackConversions ?? domain.trackConversions
    }

    /// `https://<domain>/<key>`, built in one allocation: every Android and Deep View
    /// visit snapshots it (three appends cost 1,700 instructions).
    public var shortUrl: String {
        var domain = domain
        var key = key
        return domain.withUTF8 { d in
            key.withUTF8 { k in
                String(unsafeUninitializedCapacity: Link.scheme.count + d.count + 1 + k.count) { out in
                    var o = out.initialize(fromContentsOf: Link.scheme)
                    o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: d)
                    out[o] = UInt8(ascii: "/")
                    return o + 1 + UnsafeMutableBufferPointer(rebasing: out[(o + 1)...]).initialize(fromContentsOf: k)
                }
            }
        }
    }

    private static let scheme: [UInt8] = Array("https://".utf8)
}

/// What a mobile-enabled link hands to the app (seed 001).
public struct MobilePayload: Sendable, Equatable {
    public var appId: String
    /// In-app route, starts with `/`, at most 500 characters.
    public var route: String
    /// Static referral code (at most 128); wins over a dynamic `ref`.
    public var referralCode: String?
    /// Safe metadata: a JSON object (20 keys, 3 levels, 4 KB, no sensitive keys).
    public var metadata: JSONValue {
        didSet { metadataJSON = MetadataEncoding.bytes(metadata) }
    }
    /// `metadata` as the store writes it, encoded once per link rather than by the
    /// store's writer for every handoff snapshot of it.
    public private(set) var metadataJSON: [UInt8]
    /// Query keys whose values a visit captures (at most 20, `^[a-z][a-z0-9_]{0,39}$`).
    public var dynamicKeys: [String]
    /// The link's Deep View switch; the domain has the other one.
    public var deepView: Bool

    public init(
        appId: String, route: String, referralCode: String? = nil, metadata: JSONValue = .object([]),
        dynamicKeys: [String] = [], deepView: Bool = true
    ) {
        self.appId = appId
        self.route = route
        self.referralCode = referralCode
        self.metadata = metadata
        self.metadataJSON = MetadataEncoding.bytes(metadata)
        self.dynamicKeys = dynamicKeys
        self.deepView = deepView
    }
}

/// Open Graph fields for link previews and the Deep View.
public struct LinkPreview: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var imageUrl: String?

    public init(title: String? = nil, description: String? = nil, imageUrl: String? = nil) {
        self.title = title
        self.description = description
        self.imageUrl = imageUrl
    }
}
