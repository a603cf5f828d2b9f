import XCTest

@testable import Model

/// ISO 4217 with minor units: what a sale's currency may be.
final class CurrencyTests: XCTestCase {
    func testMinorUnitsOfCommonAndUnusualCurrencies() {
        XCTAssertEqual(Currency.minorUnit("usd"), 2)
        XCTAssertEqual(Currency.minorUnit("EUR"), 2, "either case")
        XCTAssertEqual(Currency.minorUnit("jpy"), 0)
        XCTAssertEqual(Currency.minorUnit("krw"), 0)
        XCTAssertEqual(Currency.minorUnit("isk"), 0)
        XCTAssertEqual(Currency.minorUnit("kwd"), 3)
        XCTAssertEqual(Currency.minorUnit("bhd"), 3)
        XCTAssertEqual(Currency.minorUnit("clf"), 4)
        XCTAssertEqual(Currency.minorUnit(Currency.defaultCode), 2)
    }

    func testCodesWithoutAMinorUnitAndNonCodesAreRefused() {
        for code in ["xxx", "xau", "xag", "xpt", "xpd", "xdr", "xts", "xba", "xsu", "xua"] {
            XCTAssertNil(Currency.minorUnit(code), code)
        }
        for text in ["", "us", "usdd", "abc", "US Dollar", "u$d", "hrk"] {
            XCTAssertNil(Currency.minorUnit(text), text)
        }
    }

    func testTheTableHasNoCodeTwice() {
        let all = Currency.zero + Currency.two + Currency.three + Currency.four
        XCTAssertEqual(Set(all).count, all.count)
        XCTAssertTrue(all.allSatisfy { $0.count == 3 && $0 == $0.lowercased() })
        XCTAssertGreaterThan(all.count, 150)
    }
}
