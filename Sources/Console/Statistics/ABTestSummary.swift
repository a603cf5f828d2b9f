import Management

/// An A/B test's arms as the link's page reads them (decision 0032, as built): each arm's
/// clicks and conversions, and each arm after the first (A, the control) tested against
/// A with a pooled two-proportion z-test, with a plain verdict.
///
/// A click is one trial. A click converts when a lead or a sale reached it; the store
/// counts events per arm, not converting clicks, so an arm's conversions are the larger of
/// its leads and its sales (a sale usually follows a lead of the same click), capped at
/// its clicks: a click with two leads counts twice until the cap.
struct ABTestSummary: Sendable, Equatable {
    /// Below these an arm's comparison says "not enough data": the normal approximation
    /// needs enough trials, and enough expected conversions and non-conversions at the
    /// pooled rate in each arm (the textbook's at least 5).
    static let minimumClicks = 100
    static let minimumExpected = 5.0
    /// A difference is called at p < 0.05 (95 % confidence), two-sided.
    static let significance = 0.05

    enum Verdict: Sendable, Equatable {
        case control
        case notEnoughData
        case noClearDifference(confidence: Double)
        case better(confidence: Double)
        case worse(confidence: Double)
    }

    struct Arm: Sendable, Equatable {
        let index: Int
        let clicks: Int
        let leads: Int
        let sales: Int
        let revenue: [String: Int128]
        let conversions: Int
        /// Conversions over clicks; nil without clicks.
        var rate: Double? { clicks > 0 ? Double(conversions) / Double(clicks) : nil }
        let verdict: Verdict
    }

    let arms: [Arm]

    /// `totals` by arm (several entries of one arm are added up); `armCount`: the arms
    /// shown at least (the link's variants), arm i without totals having none.
    init(_ totals: [VariantTotals], armCount: Int) {
        let count = max(armCount, (totals.map(\.arm).max() ?? -1) + 1)
        var sums = (0..<count).map { VariantTotals(arm: $0) }
        for t in totals where t.arm >= 0 {
            sums[t.arm].clicks += t.clicks
            sums[t.arm].leads += t.leads
            sums[t.arm].sales += t.sales
            for (currency, amount) in t.revenue { sums[t.arm].revenue[currency, default: 0] += amount }
        }
        let conversions = sums.map { min($0.clicks, max($0.leads, $0.sales)) }
        arms = sums.enumerated().map { i, s in
            Arm(
                index: i, clicks: s.clicks, leads: s.leads, sales: s.sales, revenue: s.revenue,
                conversions: conversions[i],
                verdict: i == 0
                    ? .control
                    : Self.verdict(
                        controlConversions: conversions[0], controlClicks: sums[0].clicks,
                        conversions: conversions[i], clicks: s.clicks))
        }
    }

    /// B (`conversions` of `clicks`) against the control.
    static func verdict(controlConversions: Int, controlClicks: Int, conversions: Int, clicks: Int) -> Verdict {
        guard controlClicks >= minimumClicks, clicks >= minimumClicks else { return .notEnoughData }
        let pooled = Double(controlConversions + conversions) / Double(controlClicks + clicks)
        for n in [controlClicks, clicks] {
            let expected = Double(n) * pooled
            guard expected >= minimumExpected, Double(n) - expected >= minimumExpected else { return .notEnoughData }
        }
        let test = TwoProportionTest(
            controlConversions: controlConversions, controlTrials: controlClicks, conversions: conversions,
            trials: clicks)
        guard test.pValue < significance else { return .noClearDifference(confidence: test.confidence) }
        return test.z > 0 ? .better(confidence: test.confidence) : .worse(confidence: test.confidence)
    }

    /// `97 %`, `99.4 %`, `over 99.9 %`: rounded down, so a result never reads surer than
    /// it is.
    static func percent(_ confidence: Double) -> String {
        if confidence >= 0.999 { return "over 99.9\u{A0}%" }
        if confidence >= 0.99 { return "99.\(Int((confidence * 1000).rounded(.down)) - 990)\u{A0}%" }
        return "\(Int((confidence * 100).rounded(.down)))\u{A0}%"
    }
}
