import Management
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
    var leads: [Int]
    var sales: [Int]
    var topLinks: [TopLink]
    /// The period's totals and those of the `days` days before it.
    var totals: PeriodTotals
    var previous: PeriodTotals

    struct TopLink: Sendable, Equatable {
        var id: String
        /// Nil when the link was deleted since it was counted.
        var shortUrl: String?
        var url: String?
        var clicks: Int
    }

    init(
        countedAt: Int64, firstDay: Int64, days: Int, activity: WorkspaceActivity, before: WorkspaceActivity? = nil,
        topLinks: [TopLink]
    ) {
        self.countedAt = countedAt
        self.firstDay = firstDay
        self.days = days
        var clicks = [Int](repeating: 0, count: days)
        var opens = [Int](repeating: 0, count: days)
        var leads = [Int](repeating: 0, count: days)
        var sales = [Int](repeating: 0, count: days)
        for day in activity.days where day.day >= firstDay && day.day < firstDay + Int64(days) {
            clicks[Int(day.day - firstDay)] += day.clicks
            opens[Int(day.day - firstDay)] += day.opens
            leads[Int(day.day - firstDay)] += day.leads
            sales[Int(day.day - firstDay)] += day.sales
        }
        self.clicks = clicks
        self.opens = opens
        self.leads = leads
        self.sales = sales
        self.topLinks = topLinks
        self.totals = Self.totals(activity.days, firstDay..<(firstDay + Int64(days)))
        self.previous = Self.totals(before?.days ?? [], (firstDay - Int64(days))..<firstDay)
    }

    static func totals(_ days: [WorkspaceActivity.Day], _ range: Range<Int64>) -> PeriodTotals {
        var t = PeriodTotals()
        for d in days where range.contains(d.day) {
            t.clicks += d.clicks
            t.installs += d.installs
            t.leads += d.leads
            t.sales += d.sales
            for (currency, amount) in d.revenue { t.revenue[currency, default: 0] += amount }
        }
        return t
    }
}
