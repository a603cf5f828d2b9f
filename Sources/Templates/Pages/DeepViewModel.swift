import Model

/// What the Deep View shows. Every string is shown as text (escaped); every URL is a `SafeURL`.
public struct DeepViewModel: Sendable {
    public var appName: String
    /// The app's icon; nil shows the built-in placeholder icon.
    public var iconURL: SafeURL?
    /// The link's preview title; nil shows the app's name as the heading.
    public var title: String?
    public var description: String?
    public var imageURL: SafeURL?
    public var store: StoreTarget
    /// `https://<domain>/m/handoff?biqli_token=bqmh_...` (make it with `SafeURL.handoff`).
    public var handoffURL: SafeURL
    /// For a visitor inside an app's own browser: the part that says so and offers the
    /// ways out (decision 0033 §4); nil for every other visitor.
    public var inApp: DeepViewInApp?

    public init(
        appName: String, iconURL: SafeURL? = nil, title: String? = nil, description: String? = nil,
        imageURL: SafeURL? = nil, store: StoreTarget, handoffURL: SafeURL, inApp: DeepViewInApp? = nil
    ) {
        self.inApp = inApp
        self.appName = appName
        self.iconURL = iconURL
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.store = store
        self.handoffURL = handoffURL
    }

    /// The model for a visit to `link` of `app` that created handoff `token`. Nil when the app has
    /// no iOS platform with a valid App Store ID or TestFlight URL, or the token or the link's
    /// domain is malformed: the edge then uses the iOS fallback instead. Icon and image URLs that
    /// are not `https:` are dropped (placeholder icon, no image) rather than failing the page.
    public init?(app: MobileApp, link: Link, handoffToken: String) {
        guard let ios = app.ios, let store = StoreTarget(ios),
            let handoff = SafeURL.handoff(domain: link.domain, token: handoffToken)
        else { return nil }
        self.init(
            appName: app.name, iconURL: app.iconUrl.flatMap(SafeURL.init), title: link.preview?.title.nonEmpty,
            description: link.preview?.description.nonEmpty, imageURL: link.preview?.imageUrl.flatMap(SafeURL.init),
            store: store, handoffURL: handoff)
    }
}

extension Optional where Wrapped == String {
    /// Nil for nil, empty or all-whitespace text.
    var nonEmpty: String? {
        guard let text = self, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }
}
