import Glibc

/// A two-proportion z-test, pooled, two-sided: whether arm B's conversion rate differs
/// from the control A's more than chance would make it (decision 0032, as built). Pure,
/// so that its numbers are checked against textbook values.
///
/// Under the null hypothesis both arms share one rate p = (x₁ + x₂) / (n₁ + n₂); the
/// difference of the rates over its standard error √(p(1 − p)(1/n₁ + 1/n₂)) is then
/// close to a standard normal, and the p-value is the chance of a |z| at least as large:
/// erfc(|z| / √2).
struct TwoProportionTest: Sendable, Equatable {
    /// B's rate minus A's over the pooled standard error; 0 when it cannot be computed
    /// (no trial in an arm, or every trial or none converting in both).
    let z: Double
    /// Two-sided; 1 when `z` is 0.
    let pValue: Double

    /// `controlConversions` of `controlTrials` against `conversions` of `trials`;
    /// conversions are capped at trials.
    init(controlConversions: Int, controlTrials: Int, conversions: Int, trials: Int) {
        let n1 = Double(max(0, controlTrials))
        let n2 = Double(max(0, trials))
        let x1 = Double(min(max(0, controlConversions), max(0, controlTrials)))
        let x2 = Double(min(max(0, conversions), max(0, trials)))
        guard n1 > 0, n2 > 0 else {
            (z, pValue) = (0, 1)
            return
        }
        let pooled = (x1 + x2) / (n1 + n2)
        let standardError = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
        guard standardError > 0 else {
            (z, pValue) = (0, 1)
            return
        }
        z = (x2 / n2 - x1 / n1) / standardError
        pValue = erfc(abs(z) / 2.0.squareRoot())
    }

    /// 1 − p-value: how sure the difference is not chance, as the page says it.
    var confidence: Double { 1 - pValue }
}
