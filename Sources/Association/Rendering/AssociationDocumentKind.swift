/// The two association files a domain serves.
public enum AssociationDocumentKind: String, Sendable, Equatable, CaseIterable {
    case appleAppSiteAssociation = "apple-app-site-association"
    case assetLinks = "assetlinks.json"

    /// The canonical request path.
    public var path: String { "/.well-known/" + rawValue }

    /// Every path that serves this document with the same bytes. Apple also fetches the
    /// file at the root (older iOS versions did, some validators still do).
    public var paths: [String] {
        switch self {
        case .appleAppSiteAssociation: return [path, "/apple-app-site-association"]
        case .assetLinks: return [path]
        }
    }

    /// The kind served at `path` (the path without query), or nil.
    public init?(path: Substring) {
        switch path {
        case "/.well-known/apple-app-site-association", "/apple-app-site-association":
            self = .appleAppSiteAssociation
        case "/.well-known/assetlinks.json": self = .assetLinks
        default: return nil
        }
    }
}
