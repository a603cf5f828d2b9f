import Model

/// What the plan of a visit of a link with options (decision 0032) reads beyond the link
/// and the visitor; a link without options never makes one.
public struct VisitFacts: Sendable {
    /// Unix milliseconds: expiry.
    public var now: Int64
    /// `Accept-Language`, parsed only when a rule names languages.
    public var acceptLanguage: Substring?
    /// The visitor's country (upper case), looked up only when a rule names countries.
    public var country: String?
    /// `Cookie`, read only for a link with variants.
    public var cookie: Substring?
    /// The link's options as the caller prepared them (`PreparedOptionsCache`): the
    /// variants' fingerprint and what the rules read come from there; nil: computed here.
    public var prepared: PreparedOptions?
    /// The escapes from an in-app browser the operator allows this visit; nil: all.
    public var inAppEscapes: Set<InAppEscape>?

    public init(
        now: Int64, acceptLanguage: Substring? = nil, country: String? = nil, cookie: Substring? = nil,
        prepared: PreparedOptions? = nil, inAppEscapes: Set<InAppEscape>? = nil
    ) {
        self.now = now
        self.acceptLanguage = acceptLanguage
        self.country = country
        self.cookie = cookie
        self.prepared = prepared
        self.inAppEscapes = inAppEscapes
    }
}
