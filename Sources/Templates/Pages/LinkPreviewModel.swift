import Model

/// What a link-preview bot gets: Open Graph and Twitter tags plus a readable page.
public struct LinkPreviewModel: Sendable {
    /// The short link itself (`og:url`).
    public var shortURL: SafeURL
    /// Where the page's button goes (the link's web destination); nil hides the button.
    public var webURL: SafeURL?
    /// `og:title`; nil uses `siteName`, then the short link's host.
    public var title: String?
    public var description: String?
    public var imageURL: SafeURL?
    /// `og:site_name` (the app's name, when the link has one).
    public var siteName: String?

    public init(
        shortURL: SafeURL, webURL: SafeURL? = nil, title: String? = nil, description: String? = nil,
        imageURL: SafeURL? = nil, siteName: String? = nil
    ) {
        self.shortURL = shortURL
        self.webURL = webURL
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.siteName = siteName
    }

    /// The model for `link` (and its app, if mobile-enabled). Nil only when the link's domain or
    /// key cannot form an `https:` URL. A web destination that is not `https:` gets no button.
    public init?(link: Link, app: MobileApp? = nil) {
        guard let short = SafeURL(link.shortUrl) else { return nil }
        self.init(
            shortURL: short, webURL: SafeURL(link.url), title: link.preview?.title.nonEmpty,
            description: link.preview?.description.nonEmpty, imageURL: link.preview?.imageUrl.flatMap(SafeURL.init),
            siteName: app?.name)
    }

    /// The heading and `og:title`.
    var displayTitle: String { title ?? siteName.nonEmpty ?? shortURL.host }
}
