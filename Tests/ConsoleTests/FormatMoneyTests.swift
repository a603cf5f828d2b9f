import XCTest

@testable import Console

/// Amounts in minor units read with their currency's digits (ISO 4217).
final class FormatMoneyTests: XCTestCase {
    func testAmountsUseTheCurrencysMinorDigits() {
        XCTAssertEqual(Format.money(4999, "usd"), "49.99 USD")
        XCTAssertEqual(Format.money(123_456_789, "eur"), "1,234,567.89 EUR")
        XCTAssertEqual(Format.money(5, "usd"), "0.05 USD")
        XCTAssertEqual(Format.money(500, "jpy"), "500 JPY", "no minor unit")
        XCTAssertEqual(Format.money(1_234_567, "bhd"), "1,234.567 BHD", "three digits")
        XCTAssertEqual(Format.money(0, "usd"), "0.00 USD")
    }

    /// Sums past 64 bits (decision 0029): every digit, with each currency's minor unit.
    func testSumsPastSixtyFourBitsAreWrittenInFull() {
        let sum = 1_026 * Int128(9_007_199_254_740_991)
        XCTAssertEqual(Format.money(sum, "vnd"), "9,241,386,435,364,256,766 VND")
        XCTAssertEqual(Format.money(sum, "usd"), "92,413,864,353,642,567.66 USD")
        XCTAssertEqual(Format.money(sum, "kwd"), "9,241,386,435,364,256.766 KWD")
        XCTAssertEqual(Format.money(sum, "clf"), "924,138,643,536,425.6766 CLF", "four digits")
        XCTAssertEqual(Format.money(.max, "usd"), "1,701,411,834,604,692,317,316,873,037,158,841,057.27 USD")
        XCTAssertEqual(Format.count(Int128.min), "-170,141,183,460,469,231,731,687,303,715,884,105,728")
    }
}
