import Model

/// Where a redirect of a visit goes, named rather than spelled out: the plan stays a
/// small value, and a URL that only a failure needs is built only then.
public enum VisitTarget: Sendable, Equatable {
    /// The link's web destination.
    case web
    /// The iOS platform's fallback URL.
    case iosFallback
    /// The App Store page, else TestFlight (`IOSPlatform.storeUrl`).
    case iosStore
    /// The app's Google Play page without a token: the operator's Play URL as written,
    /// else the default one for the package.
    case playStore

    /// The URL of this target on a visit of a link whose web destination is `webURL` and
    /// whose app is `app` (the link's URL alone, not the link: a durable visit keeps these
    /// until its write completes). A plan names only targets that exist; one that does
    /// not falls back to the web destination.
    public func location(webURL: String, app: MobileApp?) -> String {
        switch self {
        case .web:
            return webURL
        case .iosFallback:
            return app?.ios?.fallbackUrl ?? webURL
        case .iosStore:
            return app?.ios?.storeUrl ?? webURL
        case .playStore:
            guard let android = app?.android else { return webURL }
            return android.playStoreUrl ?? PlayReferrer.storeBase + "?id=" + android.packageName
        }
    }
}
