/// What the whole workspace saw over a range of UTC days (`StoreReader.workspaceActivity`):
/// the operator console's overview. Read from the per-link daily counts, every row of
/// the range, one day per statement: a background question, never one for an event loop.
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
    /// The days read one by one, added up: the stores' `workspaceActivity`.
    struct Tally {
        private var days: [Day] = []
        private var byLink: [String: Int] = [:]

        mutating func add(day: Int64, clicksByLink: [(String, Int)], opens: Int) {
            var clicks = 0
            for (link, n) in clicksByLink {
                byLink[link, default: 0] += n
                clicks += n
            }
            if clicks > 0 || opens > 0 { days.append(Day(day: day, clicks: clicks, opens: opens)) }
        }

        /// The days in order, and the `topLinks` links with the most clicks (ties by id).
        func result(topLinks: Int) -> WorkspaceActivity {
            let top = byLink.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(max(topLinks, 0)).map { LinkClicks(linkId: $0.key, clicks: $0.value) }
            return WorkspaceActivity(days: days, topLinks: Array(top))
        }
    }
}
