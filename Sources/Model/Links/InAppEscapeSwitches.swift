/// The operator's switches: for each in-app browser tag, the escapes allowed; `*` for
/// every tag not named. Kept on the workspace and, overriding it, on a link (decision
/// 0033 §5): `{"*": ["playIntent", "appIntent", "safari", "alternateDomain"], "tiktok": []}`.
public struct InAppEscapeSwitches: Sendable, Equatable {
    public static let anyApp = "*"
    public var byApp: [String: Set<InAppEscape>]

    public init(_ byApp: [String: Set<InAppEscape>] = [:]) {
        self.byApp = byApp
    }

    /// No entry: every escape everywhere, as if there were no switches.
    public var isEmpty: Bool { byApp.isEmpty }

    /// At most this many entries (the classifier has fewer tags; `*` is one more).
    public static let maxEntries = 64

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
