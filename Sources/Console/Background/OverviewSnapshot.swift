import Store

/// The overview's numbers as the background thread counted them at `countedAt`.
struct OverviewSnapshot: Sendable, Equatable {
    /// Unix milliseconds.
    var countedAt: Int64
    /// The first day (days since the epoch, UTC) and how many: today is the last.
    var firstDay: Int64
    var days: Int
    /// One per day, oldest first (zero when nothing happened).
    var clicks: [Int]
    var opens: [Int]
    var topLinks: [TopLink]

    struct TopLink: Sendable, Equatable {
        var id: String
        /// Nil when the link was deleted since it was counted.
        var shortUrl: String?
        var url: String?
        var clicks: Int
    }

    init(countedAt: Int64, firstDay: Int64, days: Int, activity: WorkspaceActivity, topLinks: [TopLink]) {
        self.countedAt = countedAt
        self.firstDay = firstDay
        self.days = days
        var clicks = [Int](repeating: 0, count: days)
        var opens = [Int](repeating: 0, count: days)
        for day in activity.days where day.day >= firstDay && day.day < firstDay + Int64(days) {
            clicks[Int(day.day - firstDay)] += day.clicks
            opens[Int(day.day - firstDay)] += day.opens
        }
        self.clicks = clicks
        self.opens = opens
        self.topLinks = topLinks
    }
}
