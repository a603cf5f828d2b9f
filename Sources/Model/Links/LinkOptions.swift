/// What a link may add to the seeds' model (issue 35, decision 0032): routing rules, A/B
/// variants, UTM parameters, the visitor's query, expiry, and the workspace's own labels
/// (tags, an external id), and its switches of the in-app escapes (issue 36). One
/// immutable object per link, nil for a link with none of them: a plain link's copies on
/// the visit path stay one pointer larger than before, whatever a link with options holds.
public final class LinkOptions: Sendable, Equatable {
    /// At most `LinkOptions.maxRules`, in order: the first whose conditions all hold
    /// chooses the web destination.
    public let rules: [LinkRule]
    /// Empty, or 2 to 5 whose weights sum to 100: an A/B test of the web destination.
    public let variants: [LinkVariant]
    /// Added to every web destination the link sends to (never to a store or handoff URL).
    public let utm: UTMParameters?
    /// Whether the visitor's query goes on to the web destination; nil follows the
    /// domain's default (`Domain.passQuery`).
    public let passQuery: Bool?
    /// Unix milliseconds from which the link answers as expired; nil never.
    public let expiresAt: Int64?
    /// Where an expired link sends every visitor; nil answers 410 with a page.
    public let expiredUrl: String?
    /// The workspace's own id of the link, unique in the workspace.
    public let externalId: String?
    /// `biq_tag_` ids, at most `LinkOptions.maxTags`.
    public let tagIds: [String]
    /// The escapes from in-app browsers this link allows, over the workspace's (decision
    /// 0033 §5); nil follows the workspace.
    public let inAppEscapes: InAppEscapeSwitches?

    public static let maxRules = 20
    public static let maxTags = 20
    public static let variantCount = 2...5

    public init(
        rules: [LinkRule] = [], variants: [LinkVariant] = [], utm: UTMParameters? = nil, passQuery: Bool? = nil,
        expiresAt: Int64? = nil, expiredUrl: String? = nil, externalId: String? = nil, tagIds: [String] = [],
        inAppEscapes: InAppEscapeSwitches? = nil
    ) {
        self.rules = rules
        self.variants = variants
        self.utm = utm
        self.passQuery = passQuery
        self.expiresAt = expiresAt
        self.expiredUrl = expiredUrl
        self.externalId = externalId
        self.tagIds = tagIds
        self.inAppEscapes = inAppEscapes
    }

    /// Options that change nothing: a link keeps nil rather than this.
    public var isEmpty: Bool {
        rules.isEmpty && variants.isEmpty && utm == nil && passQuery == nil && expiresAt == nil && expiredUrl == nil
            && externalId == nil && tagIds.isEmpty && inAppEscapes == nil
    }

    /// Nil when `options` is empty (the one form a link without options has).
    public static func normalized(_ options: LinkOptions?) -> LinkOptions? {
        guard let options, !options.isEmpty else { return nil }
        return options
    }

    public static func == (a: LinkOptions, b: LinkOptions) -> Bool {
        a === b
            || (a.rules == b.rules && a.variants == b.variants && a.utm == b.utm && a.passQuery == b.passQuery
                && a.expiresAt == b.expiresAt && a.expiredUrl == b.expiredUrl && a.externalId == b.externalId
                && a.tagIds == b.tagIds && a.inAppEscapes == b.inAppEscapes)
    }
}
