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
}
