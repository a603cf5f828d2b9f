/// What an association file needs to know of a link that hands over to an app: the
/// key it would claim and the app it belongs to (`mobile.appId`).
///
/// A domain with several iOS apps gives each app's AASA entry its own links' keys
/// (decision 0012); links without a mobile payload belong to no app and have none.
public struct LinkClaim: Sendable, Equatable, Hashable {
    public var key: String
    public var appId: String
    /// A disabled link is claimed by no app (it behaves as unknown), but it still
    /// counts towards the document's size limit, so that enabling it cannot pass it.
    public var enabled: Bool

    public init(key: String, appId: String, enabled: Bool = true) {
        self.key = key
        self.appId = appId
        self.enabled = enabled
    }
}

extension Link {
    /// The link's claim, or nil for a web-only link (no mobile payload).
    public var claim: LinkClaim? {
        guard let mobile else { return nil }
        return LinkClaim(key: key, appId: mobile.appId, enabled: enabled)
    }
}
