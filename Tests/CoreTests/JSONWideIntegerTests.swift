import XCTest

@testable import Core

/// Integers past 64 bits in JSON the edge writes (sums of sales' amounts, decision 0029):
/// every digit, `.int` whenever the value fits, equal across the two cases.
final class JSONWideIntegerTests: XCTestCase {
    func testWideIntegersAreWrittenWithEveryDigit() {
        let past = Int128(Int64.max) + 1
        XCTAssertEqual(JSONValue.integer(past), .wideInt(past))
        XCTAssertEqual(JSONValue.integer(past).jsonString, "9223372036854775808")
        XCTAssertEqual(JSONValue.integer(.max).jsonString, "170141183460469231731687303715884105727")
        XCTAssertEqual(JSONValue.integer(.min).jsonString, "-170141183460469231731687303715884105728")
        XCTAssertEqual(
            JSONValue.object([("vnd", .integer(1_026 * 9_007_199_254_740_991))]).canonicalBytes,
            Array(#"{"vnd":9241386435364256766}"#.utf8))
    }

    func testValuesThatFitSixtyFourBitsStayInts() {
        XCTAssertEqual(JSONValue.integer(Int128(Int64.max)), .int(.max))
        XCTAssertEqual(JSONValue.integer(Int128(Int64.min)), .int(.min))
        XCTAssertEqual(JSONValue.integer(0), .int(0))
        XCTAssertEqual(JSONValue.wideInt(5), .int(5), "the same number")
        XCTAssertNotEqual(JSONValue.wideInt(Int128(Int64.max) + 1), .int(.max))
        XCTAssertNil(JSONValue.wideInt(Int128(Int64.max) + 1).intValue)
    }
}
