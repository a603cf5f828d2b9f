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

    /// 8 hex digits of FNV-1a (32 bits) over the variants' weights and URLs: an edit of
    /// the test changes it, and every visitor then draws afresh. Not SHA-256, as decision
    /// 0032 first said: nothing here needs a cryptographic hash (a visitor can write any
    /// cookie), and every visit of a test computes it, so it reads the URLs in place and
    /// builds nothing but its 8 characters (a small string, no allocation).
    public static func fingerprint(_ variants: [LinkVariant]) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for v in variants {
            var weight = max(v.weight, 0)
            repeat {
                hash = (hash ^ UInt32(0x30 + weight % 10)) &* 0x0100_0193
                weight /= 10
            } while weight > 0
            hash = (hash ^ 0x20) &* 0x0100_0193
            // The URL's bytes in place (a native string's storage): a plain loop over
            // `utf8` went through the view's index, a dozen instructions a byte.
            var url = v.url
            url.withUTF8 { bytes in
                for b in bytes { hash = (hash ^ UInt32(b)) &* 0x0100_0193 }
            }
            hash = (hash ^ 0x0A) &* 0x0100_0193
        }
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 8) { out in
            for i in 0..<8 { out[i] = digits.utf8Start[Int((hash >> UInt32(28 - 4 * i)) & 0xF)] }
            return 8
        }
    }
}
