/// A way out of an in-app browser that the edge may offer (issue 36, decision 0033 §5).
/// The Deep View's Continue button is no escape: it works everywhere and is always there.
public enum InAppEscape: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Android: the Play redirect as the Play Store intent (`PlayStoreIntent`).
    case playIntent
    /// Android: the app's own intent with the short link first (`AppIntent`).
    case appIntent
    /// iOS: "Open in Safari" (`SafariEscape`, or the app's menu steps).
    case safari
    /// iOS: "Open in the app" through the domain's alternate hostname.
    case alternateDomain
}

/// The operator's switches: for each in-app browser tag, the escapes allowed; `*` for
/// every tag not named. Kept on the workspace and, overriding it, on a link (decision
/// 0033 §5): `{"*": ["playIntent", "appIntent", "safari", "alternateDomain"], "tiktok": []}`.
public struct InAppEscapeSwitches: Sendable, Equatable {
    public static let anyApp = "*"
    public var byApp: [String: Set<InAppEscape>]

    public init(_ byApp: [String: Set<InAppEscape>] = [:]) {
        self.byApp = byApp
    }

    /// The escapes a visit through `tag` may get: the link's entry for the tag, else the
    /// link's `*`, else the workspace's entry for the tag, else its `*`, else all of them.
    public static func allowed(tag: String, link: InAppEscapeSwitches?, workspace: InAppEscapeSwitches?)
        -> Set<InAppEscape>
    {
        for switches in [link, workspace] {
            guard let byApp = switches?.byApp else { continue }
            if let set = byApp[tag] ?? byApp[anyApp] { return set }
        }
        return Set(InAppEscape.allCases)
    }
}
