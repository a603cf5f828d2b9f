/// A custom short-link domain (`go.example.com`).
public struct Domain: Sendable, Equatable {
    /// Lower-case DNS name; the primary key.
    public var hostname: String
    /// The operator asserts ownership (self-hosted: no DNS challenge). Only verified
    /// domains take part in `exact_app_link` and probabilistic matching.
    public var verified: Bool
    /// The domain's Deep View switch; the link has the other one. Both must be on.
    public var deepViewEnabled: Bool
    /// Where `/` goes; nil means the built-in page.
    public var rootUrl: String?
    /// Where unknown keys go; nil means the built-in 404 page.
    public var notFoundUrl: String?
    /// Conversion tracking for the domain's links that do not say (`Link.trackConversions`).
    public var trackConversions: Bool
    /// Whether the visitor's query goes on to the web destination for the domain's links
    /// that do not say (`LinkOptions.passQuery`); off by default.
    public var passQuery: Bool
    /// A second hostname served by the same edge with the same links and association
    /// files (decision 0033 §4): a universal link fires only when a tap crosses domains, so
    /// an iOS in-app Deep View's "Open in the app" links there. Nil: none.
    public var alternateHostname: String?
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        hostname: String, verified: Bool = false, deepViewEnabled: Bool = true, rootUrl: String? = nil,
        notFoundUrl: String? = nil, trackConversions: Bool = false, passQuery: Bool = false,
        alternateHostname: String? = nil, createdAt: Int64 = 0, updatedAt: Int64 = 0
    ) {
        self.hostname = hostname
        self.verified = verified
        self.deepViewEnabled = deepViewEnabled
        self.rootUrl = rootUrl
        self.notFoundUrl = notFoundUrl
        self.trackConversions = trackConversions
        self.passQuery = passQuery
        self.alternateHostname = alternateHostname
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
