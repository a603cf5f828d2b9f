/// "Open in Safari" from an iOS in-app browser (issue 36, item 4): the `x-safari-https:`
/// scheme, which iOS hands to Safari whatever app asks.
///
/// Offered only where it was seen to work: iOS 17.5 and later (it failed on 17.0: PovioKit
/// PR #352; "iOS 17+": inapp-debugger PR #5), and not in Snapchat or WeChat, whose
/// browsers do not open it (inapp-debugger's device table, Oct 2024). Elsewhere the page
/// shows the app's own menu steps instead (`docs/in-app-browsers.md`).
public enum SafariEscape {
    public static let minimumOSVersion = (major: 17, minor: 5)
    /// In-app browsers that ignore the scheme.
    public static let ignoredBy: Set<String> = ["snapchat", "wechat"]

    /// `x-safari-https://...` for an `https:` link, or nil when the scheme is not offered.
    /// - Parameters:
    ///   - osVersion: the iOS version from the user agent (`Visitor.osVersion`); nil is not offered.
    ///   - app: the in-app browser tag (`Visitor.inAppBrowser`).
    public static func url(link: String, osVersion: String?, app: String?) -> String? {
        guard link.hasPrefix("https://"), isOffered(osVersion: osVersion, app: app) else { return nil }
        return "x-safari-" + link
    }

    /// Whether the scheme is offered to a visitor on `osVersion` in the in-app browser `app`.
    public static func isOffered(osVersion: String?, app: String?) -> Bool {
        guard let osVersion, supports(osVersion: osVersion) else { return false }
        if let app, ignoredBy.contains(app) { return false }
        return true
    }

    /// The marker on the short link Safari is handed (`bq_ia=1`), so that Safari's own
    /// visit can be told from others; like every `bq_*` parameter it is never passed on.
    public static let marker = "bq_ia=1"

    /// `link` with `marker` appended to its query.
    public static func marked(_ link: String) -> String {
        link + (link.contains("?") ? "&" : "?") + marker
    }

    /// Whether `17.5`, `17.5.1`, `18`, `26.0`... is at least `minimumOSVersion`.
    public static func supports(osVersion: String) -> Bool {
        let parts = osVersion.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard let major = parts.first ?? nil else { return false }
        let minor = parts.count > 1 ? (parts[1] ?? 0) : 0
        return (major, minor) >= minimumOSVersion
    }
}
