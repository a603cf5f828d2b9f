import XCTest

@testable import Store

/// A sum of amounts in two 64-bit columns (schema 15, decision 0029): split and joined
/// back exactly at the limits, the low part below 10^18 so that two add without overflow.
final class StoredAmountTests: XCTestCase {
    func testSumsAreSplitAndJoinedExactlyAtTheLimits() {
        let largest = Int128(9_007_199_254_740_991)
        let base = Int128(StoredAmount.base)
        for value: Int128 in [
            0, 1, base - 1, base, base + 1, Int128(Int64.max), Int128(Int64.max) + 1, 1_025 * largest,
            (Int128(1) << 63) * largest,  // 2^63 sales of the largest amount: more than any store holds
        ] {
            let (high, low) = StoredAmount.split(value)
            XCTAssertTrue((0..<StoredAmount.base).contains(low), "\(value)")
            XCTAssertEqual(StoredAmount.join(high: high, low: low), value)
        }
        XCTAssertEqual(StoredAmount.split(1_025 * largest).high, 9)
        // Two low parts at their largest still add within 64 bits.
        XCTAssertFalse((StoredAmount.base - 1).addingReportingOverflow(StoredAmount.base - 1).overflow)
    }

    func testAnyPairOfColumnsJoinsWithoutOverflow() {
        // What an older binary may have left (an `amount` up to 2^63 - 1, no carry), and the
        // extremes of both columns.
        XCTAssertEqual(StoredAmount.join(high: 0, low: .max), Int128(Int64.max))
        XCTAssertEqual(StoredAmount.join(high: .max, low: .max), Int128(Int64.max) * (Int128(StoredAmount.base) + 1))
        XCTAssertEqual(StoredAmount.join(high: .min, low: .min), Int128(Int64.min) * (Int128(StoredAmount.base) + 1))
        XCTAssertEqual(StoredAmount.split(.max).high, .max, "clamped, not trapped")
    }
}
