/// One arm of a link's A/B test (`Link.options.variants`, by index) over a report's
/// period: its clicks, and the leads and sales that reached it through their click ID
/// (decision 0032). The API renders these as `byVariant`, the console as the test's
/// table.
public struct VariantTotals: Sendable, Equatable {
    /// The arm's index in the link's `variants` when the click was recorded.
    public let arm: Int
    public var clicks: Int
    public var leads: Int
    public var sales: Int
    /// The sales' amounts by currency code (minor units, 128 bits: decision 0029).
    public var revenue: [String: Int128]

    public init(arm: Int, clicks: Int = 0, leads: Int = 0, sales: Int = 0, revenue: [String: Int128] = [:]) {
        self.arm = arm
        self.clicks = clicks
        self.leads = leads
        self.sales = sales
        self.revenue = revenue
    }
}
