import Model

/// Counts for a Mobile App's analytics page.
public struct AppAnalytics: Sendable, Equatable {
    /// Clicks by platform and kind.
    public var clicks: [ClickCount]
    /// Opens by match type and first-open flag.
    public var opens: [OpenCount]
    /// Newest first.
    public var recent: [OpenEvent]

    public init(clicks: [ClickCount], opens: [OpenCount], recent: [OpenEvent]) {
        self.clicks = clicks
        self.opens = opens
        self.recent = recent
    }

    public struct ClickCount: Sendable, Equatable {
        public var platform: VisitorPlatform
        public var kind: ClickKind
        public var count: Int
        public init(platform: VisitorPlatform, kind: ClickKind, count: Int) {
            self.platform = platform
            self.kind = kind
            self.count = count
        }
    }

    public struct OpenCount: Sendable, Equatable {
        public var matchedBy: MatchType
        public var firstOpen: Bool
        public var count: Int
        public init(matchedBy: MatchType, firstOpen: Bool, count: Int) {
            self.matchedBy = matchedBy
            self.firstOpen = firstOpen
            self.count = count
        }
    }
}
