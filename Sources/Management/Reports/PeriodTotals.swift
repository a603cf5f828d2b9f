import Store

/// What a period adds up to, for the totals at the top of a link's page and of the
/// overview: clicks, installs, leads, sales and revenue by currency. Both the period
/// and the one before it (of the same length) come out of one read of 2N days.
public struct PeriodTotals: Sendable, Equatable {
    /// Clicks, preview bots' visits included (as the report's click total).
    public var clicks: Int
    /// First opens of the app that named the link with a match (a match type other than
    /// `none`): the installs this link brought.
    public var installs: Int
    public var leads: Int
    public var sales: Int
    /// The sales' amounts by currency (lowercase ISO 4217), in minor units. 128 bits: a
    /// sum of n sales of at most 2^53 - 1 each passes 64 bits from n = 1,025 and 128 bits
    /// only past n = 2^74, more sales than any store holds (decision 0029).
    public var revenue: [String: Int128]

    public init(
        clicks: Int = 0, installs: Int = 0, leads: Int = 0, sales: Int = 0, revenue: [String: Int128] = [:]
    ) {
        self.clicks = clicks
        self.installs = installs
        self.leads = leads
        self.sales = sales
        self.revenue = revenue
    }

    /// The totals of a link's counts over the days in `days`.
    public init(_ counts: LinkAnalytics, days: Range<Int64>) {
        self.init()
        for c in counts.clicks where days.contains(c.day) { clicks += c.count }
        for o in counts.opens where days.contains(o.day) && o.firstOpen && o.matchedBy != .none { installs += o.count }
        for c in counts.conversions where days.contains(c.day) {
            switch c.type {
            case .lead: leads += c.count
            case .sale:
                sales += c.count
                if let currency = c.currency { revenue[currency, default: 0] += c.amount }
            }
        }
    }

    /// The currencies of either period, in code order: a currency sold in only one of
    /// them shows with 0 in the other.
    public static func currencies(_ a: PeriodTotals, _ b: PeriodTotals) -> [String] {
        Set(a.revenue.keys).union(b.revenue.keys).sorted()
    }
}

/// The change of a number against the previous period of the same length.
public enum PeriodChange: Sendable, Equatable {
    /// Both zero.
    case none
    /// Nothing before, something now: no percentage means anything.
    case new
    /// Rounded to a whole percent (toward zero), positive up, negative down; 0 for an
    /// equal number or a change under one percent. At most `Int.max` (a sum of sales
    /// against one minor unit before can pass it: 10^20 % and more).
    case percent(Int)

    public init(current: Int128, previous: Int128) {
        if previous == 0 {
            self = current == 0 ? .none : .new
            return
        }
        let delta = (Double(current - previous) / Double(previous) * 100).rounded(.towardZero)
        // Double(Int.max) is 2^63, one past it: a conversion at or beyond it would trap.
        if delta >= Double(Int.max) {
            self = .percent(.max)
        } else if delta <= Double(Int.min) {
            self = .percent(.min)
        } else {
            self = .percent(Int(delta))
        }
    }

    public init(current: Int, previous: Int) { self.init(current: Int128(current), previous: Int128(previous)) }

    /// `+12 %`, `−40 %`, `0 %`, `new`, `–` (nothing in either period): for people.
    public var label: String {
        switch self {
        case .none: "–"
        case .new: "new"
        case .percent(let p): p > 0 ? "+\(p) %" : p < 0 ? "−\(p.magnitude) %" : "0 %"
        }
    }
}

/// Clicks -> leads -> sales of one period, from the daily counts: event counts, not
/// distinct people (a customer's second sale counts), so that it costs the same read as
/// the rest of the report. Preview bots' visits are not clicks here: a bot never signs up.
/// A rate can pass 100 % (leads of clicks made before the period, several sales per lead).
public struct ConversionFunnel: Sendable, Equatable {
    public var clicks: Int
    public var leads: Int
    public var sales: Int

    public init(clicks: Int, leads: Int, sales: Int) {
        self.clicks = clicks
        self.leads = leads
        self.sales = sales
    }

    /// Leads per 100 clicks, one decimal; nil without clicks.
    public var leadRate: Double? { Self.rate(leads, of: clicks) }
    /// Sales per 100 leads, one decimal; nil without leads.
    public var saleRate: Double? { Self.rate(sales, of: leads) }

    static func rate(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : (Double(part) * 1000 / Double(whole)).rounded() / 10
    }
}
