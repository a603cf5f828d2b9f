/// What the whole workspace saw over a range of UTC days (`StoreReader.workspaceActivity`):
/// the operator console's overview. Read from the per-link daily counts, every row of
/// the range: a background question, never one for an event loop.
public struct WorkspaceActivity: Sendable, Equatable {
    /// The days that had clicks or opens, oldest first (days without are absent).
    public var days: [Day]
    /// The links with the most clicks over the range, most first (ties by id).
    public var topLinks: [LinkClicks]

    public init(days: [Day], topLinks: [LinkClicks]) {
        self.days = days
        self.topLinks = topLinks
    }

    public struct Day: Sendable, Equatable {
        /// Days since the epoch (UTC).
        public var day: Int64
        /// Clicks, preview bots' visits included (kind `preview_bot`), as the link counts hold them.
        public var clicks: Int
        public var opens: Int

        public init(day: Int64, clicks: Int, opens: Int) {
            self.day = day
            self.clicks = clicks
            self.opens = opens
        }
    }

    public struct LinkClicks: Sendable, Equatable {
        public var linkId: String
        public var clicks: Int

        public init(linkId: String, clicks: Int) {
            self.linkId = linkId
            self.clicks = clicks
        }
    }
}

extension WorkspaceActivity {
    /// One row per day that had either, from two lists of (day, count) ordered by day.
    static func merge(clicks: [(Int64, Int)], opens: [(Int64, Int)]) -> [Day] {
        var byDay: [Int64: Day] = [:]
        for (day, n) in clicks { byDay[day, default: Day(day: day, clicks: 0, opens: 0)].clicks += n }
        for (day, n) in opens { byDay[day, default: Day(day: day, clicks: 0, opens: 0)].opens += n }
        return byDay.values.sorted { $0.day < $1.day }
    }
}
