/// A sum of sales' amounts as `link_conversion_counts` keeps it (schema 15, decision
/// 0029): two 64-bit columns, `amount_high * 10^18 + amount`, because the sum of one
/// link's day in one currency passes what one column holds after 1,025 sales of the
/// largest amount (2^53 - 1 minor units each). SQLite has no wider integer and turns an
/// overflowing `+` into a lossy REAL; PostgreSQL refuses it (`bigint out of range`).
///
/// The writers keep `amount` below `base`, so that adding a batch's low part (below `base`
/// too) never passes 2^63 - 1, and carry the rest into `amount_high`. A base of ten makes
/// the columns readable by a person (`1`, `234`: 1,000,000,000,000,000,234).
enum StoredAmount {
    /// 10^18: below 2^63 - 1 / 2, so that two low parts add without overflow.
    static let base: Int64 = 1_000_000_000_000_000_000

    /// The columns of `value` (a sum, never negative): (`amount_high`, `amount`).
    /// A value whose high part passes 64 bits (2^63 - 1 * 10^18: more than any store
    /// holds) is clamped rather than trapping.
    static func split(_ value: Int128) -> (high: Int64, low: Int64) {
        let (q, r) = value.quotientAndRemainder(dividingBy: Int128(base))
        return (Int64(clamping: q), Int64(r))
    }

    /// The sum two columns hold. Exact for any pair of 64-bit values (at most about
    /// 9.2 * 10^36, within 128 bits), so a row written by an older binary (an `amount` up
    /// to 2^63 - 1 and no carry) reads as what it holds.
    static func join(high: Int64, low: Int64) -> Int128 {
        Int128(high) * Int128(base) + Int128(low)
    }
}
