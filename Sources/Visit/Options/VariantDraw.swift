import Core
import Model

/// The arm of a link's A/B test a visitor gets (decision 0032): drawn with the weights
/// from a random value the caller injects (a seeded generator in tests), then kept in the
/// visitor's `VariantCookie` under the variants' fingerprint.
public enum VariantDraw {
    /// The arm that `roll` (uniform over all `UInt64`) lands on: arm i takes a share of
    /// `variants[i].weight` out of the weights' sum.
    public static func arm(_ variants: [LinkVariant], roll: UInt64) -> Int {
        var total = 0
        for v in variants { total += max(v.weight, 0) }
        guard total > 0, variants.count > 1 else { return 0 }
        // The high word of roll * total is uniform over 0..<total (bias below 2^-57).
        let point = Int(roll.multipliedFullWidth(by: UInt64(total)).high)
        var upTo = 0
        for (i, v) in variants.enumerated() {
            upTo += max(v.weight, 0)
            if point < upTo { return i }
        }
        return variants.count - 1
    }

    /// 8 hex digits of SHA-256 of the variants' weights and URLs: an edit of the test
    /// changes it, and every visitor then draws afresh.
    public static func fingerprint(_ variants: [LinkVariant]) -> String {
        var text = ""
        for v in variants {
            text += String(v.weight)
            text += " "
            text += v.url
            text += "\n"
        }
        return SHA256.hex(SHA256.hash(text).prefix(4))
    }
}
