import Core
import XCTest

/// One spelling per number for every integer query parameter (issue 23 item 4).
final class WholeNumberTests: XCTestCase {
    func testDigitsWithoutSignSpaceOrLeadingZero() {
        XCTAssertEqual(WholeNumber.parse("0"), 0)
        XCTAssertEqual(WholeNumber.parse("7"), 7)
        XCTAssertEqual(WholeNumber.parse("2048"), 2048)
        XCTAssertEqual(WholeNumber.parse("100"), 100)
        XCTAssertEqual(WholeNumber.parse(String(repeating: "9", count: 18)), 999_999_999_999_999_999)
        for bad in [
            "", "+5", "-5", " 5", "5 ", "05", "00", "0x10", "1e3", "1.0", "1_000", "٣", "５",
            String(repeating: "9", count: 19), "99999999999999999999999", "\0", "5\0",
        ] {
            XCTAssertNil(WholeNumber.parse(bad), bad.debugDescription)
        }
    }

    func testTheRangeIsChecked() {
        XCTAssertEqual(WholeNumber.parse("64", in: 64...2048), 64)
        XCTAssertEqual(WholeNumber.parse("2048", in: 64...2048), 2048)
        XCTAssertNil(WholeNumber.parse("63", in: 64...2048))
        XCTAssertNil(WholeNumber.parse("2049", in: 64...2048))
        XCTAssertNil(WholeNumber.parse("+2048", in: 64...2048))
    }
}
