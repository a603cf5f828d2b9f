import Model
import Store
import Visit

/// What a visit of a link leads to, decided from the link, its app, its domain and the
/// visitor alone (pure, so every branch is unit-tested without sockets).
enum VisitDecision: Equatable {
    /// HEAD: headers of a redirect to the web URL; nothing recorded.
    case head(location: String)
    /// A preview bot: the Open Graph page; nothing recorded.
    case preview
    /// Android with the app's Android platform: click, handoff, 302 to Play with the token.
    case playStore(app: MobileApp)
    /// iOS with both Deep View switches on and a store target: click, handoff, Deep View page.
    case deepView(app: MobileApp)
    /// A click recorded without a handoff, then 302 to `location`.
    case redirect(location: String, kind: ClickKind)

    static func decide(link: Link, app: MobileApp?, domain: Domain, visitor: Visitor) -> VisitDecision {
        switch visitor.kind {
        case .head:
            return .head(location: link.url)
        case .bot:
            return .preview
        case .android:
            guard let app = mobileApp(link, app), case .some = app.android else {
                return .redirect(location: link.url, kind: .desktop)
            }
            return .playStore(app: app)
        case .ios:
            guard let app = mobileApp(link, app), let ios = app.ios, let mobile = link.mobile else {
                return .redirect(location: link.url, kind: .desktop)
            }
            if domain.deepViewEnabled && mobile.deepView && ios.storeUrl != nil {
                return .deepView(app: app)
            }
            // Either switch off: the iOS fallback, and no handoff (seed 002).
            return .redirect(location: ios.fallbackUrl ?? ios.storeUrl ?? link.url, kind: .iosFallback)
        case .desktop:
            return .redirect(location: link.url, kind: .desktop)
        }
    }

    /// The app a mobile visitor may be sent to: a link whose app is disabled or gone
    /// behaves as a plain web link. Asked only on the mobile branches, and with
    /// `case .some` rather than `!= nil`, which copied the link's whole mobile payload
    /// on every visit (a desktop visit included).
    private static func mobileApp(_ link: Link, _ app: MobileApp?) -> MobileApp? {
        guard case .some = link.mobile, let app, app.enabled else { return nil }
        return app
    }
}
