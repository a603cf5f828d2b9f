/// What the whole workspace saw over a range of UTC days (`StoreReader.workspaceActivity`):
/// the operator console's overview. Read from the per-link daily counts, every row of
/// the range, one day per statement: a background question, never one for an event loop.
public struct WorkspaceActivity: Sendable, Equatable {
    /// The days that had clicks, opens, leads or sales, oldest first (days without are absent).
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
        /// First opens with a match (a match type other than `none`).
        public var installs: Int
        /// Leads and sales that occurred that day (`link_conversion_counts`, schema 12).
        public var leads: Int
        public var sales: Int
        /// The sales' amounts by currency (lowercase ISO 4217), in minor units (128 bits,
        /// decision 0029).
        public var revenue: [String: Int128]

        public init(
            day: Int64, clicks: Int, opens: Int, installs: Int = 0, leads: Int = 0, sales: Int = 0,
            revenue: [String: Int128] = [:]
        ) {
            self.day = day
            self.clicks = clicks
            self.opens = opens
            self.installs = installs
            self.leads = leads
            self.sales = sales
            self.revenue = revenue
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

        mutating func add(
            day: Int64, clicksByLink: [(String, Int)], opens: Int, installs: Int = 0,
            conversions: [(type: String, currency: String, count: Int, amount: Int128)] = []
        ) {
            var clicks = 0
            for (link, n) in clicksByLink {
                byLink[link, default: 0] += n
                clicks += n
            }
            var leads = 0
            var sales = 0
            var revenue: [String: Int128] = [:]
            for c in conversions {
                if c.type == "lead" { leads += c.count }
                if c.type == "sale" {
                    sales += c.count
                    if !c.currency.isEmpty { revenue[c.currency, default: 0] += c.amount }
                }
            }
            if clicks > 0 || opens > 0 || leads > 0 || sales > 0 {
                days.append(
                    Day(
                        day: day, clicks: clicks, opens: opens, installs: installs, leads: leads, sales: sales,
                        revenue: revenue))
            }
        }

        /// The days in order, and the `topLinks` links with the most clicks (ties by id).
        func result(topLinks: Int) -> WorkspaceActivity {
            let top = byLink.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(max(topLinks, 0)).map { LinkClicks(linkId: $0.key, clicks: $0.value) }
            return WorkspaceActivity(days: days, topLinks: Array(top))
        }
    }
}
