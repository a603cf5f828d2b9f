/// The app's own intent for an Android visitor inside an in-app web view who may have the
/// app (issue 36, item 3). App Links do not fire in a web view, so the answer names the
/// app's package and carries the short link itself: the app opens with the same URL an App
/// Link would have given it, and the resolver matches it as the `deepLink` it matches today.
///
///     intent://<host>/<path>?<query>#Intent;scheme=https;package=<app>;
///         S.browser_fallback_url=<fallback>;end
///
/// When the app is not installed, the launcher uses the fallback: today's Play URL, or
/// the Play Store intent (`PlayStoreIntent`) where the host app follows `intent:`
/// fallbacks (Chrome itself opens only http and https fallbacks).
public enum AppIntent {
    /// Why a short link cannot ride in an intent.
    public enum Failure: Error, Equatable, Sendable {
        /// Only `https://` (or `http://`) links: App Links are https, and the scheme goes back in `scheme=`.
        case notWebURL
    }

    /// - Parameters:
    ///   - link: the absolute short link, as the app would receive it from an App Link
    ///     (`https://go.example.com/summer?utm_source=ig`).
    ///   - packageName: the app's `android.packageName`.
    ///   - fallbackURL: where to go without the app; nil for none (the launcher then
    ///     decides, which in Chrome is the Play page of `packageName` without a referrer).
    public static func url(link: String, packageName: String, fallbackURL: String?) throws(Failure) -> String {
        let scheme: String
        let rest: Substring
        if link.hasPrefix("https://") {
            scheme = "https"
            rest = link.dropFirst("https:".count)
        } else if link.hasPrefix("http://") {
            scheme = "http"
            rest = link.dropFirst("http:".count)
        } else {
            throw .notWebURL
        }
        let extras = fallbackURL.map { [(key: IntentURI.browserFallbackKey, value: $0)] } ?? []
        return IntentURI(data: String(rest), scheme: scheme, package: packageName, extras: extras).uri
    }
}
