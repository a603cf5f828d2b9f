import Model

/// What the iOS Deep View offers a visitor inside an app's own browser besides Continue,
/// which works everywhere and stays first (decision 0033 §4). The plan decides it from the
/// visitor, the domain and the operator's switches; the edge builds the URLs.
public struct InAppDeepView: Sendable, Equatable {
    /// How the page offers Safari.
    public enum Safari: Sendable, Equatable {
        /// A link to `x-safari-https://<the short link>` (`SafariEscape`).
        case scheme
        /// The app's own menu steps, as text: the scheme is not offered there (iOS before
        /// 17.5, no version in the UA, Snapchat, WeChat).
        case menuSteps
        /// Turned off by the operator (`InAppEscape.safari`).
        case off
    }

    public var safari: Safari
    /// "Open in the app" through the domain's `alternateHostname`: a tap that crosses
    /// domains, where iOS fires the universal link.
    public var alternateDomain: Bool

    public init(safari: Safari, alternateDomain: Bool) {
        self.safari = safari
        self.alternateDomain = alternateDomain
    }

    /// The offer to `visitor` (an iOS visitor with an in-app tag) on `domain`, with the
    /// escapes `allowed` (nil: all).
    public static func offer(visitor: Visitor, domain: Domain, allowed: Set<InAppEscape>?) -> InAppDeepView {
        let safari: Safari
        if !(allowed?.contains(.safari) ?? true) {
            safari = .off
        } else if SafariEscape.isOffered(osVersion: visitor.osVersion, app: visitor.inAppBrowser) {
            safari = .scheme
        } else {
            safari = .menuSteps
        }
        let alternate = domain.alternateHostname != nil && (allowed?.contains(.alternateDomain) ?? true)
        return InAppDeepView(safari: safari, alternateDomain: alternate)
    }
}
