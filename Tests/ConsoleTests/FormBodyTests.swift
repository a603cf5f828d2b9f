import XCTest

@testable import Console

final class FormBodyTests: XCTestCase {
    func testPairsArePercentAndPlusDecoded() throws {
        let form = try XCTUnwrap(
            FormBody(Array("key=biqli_sk_a%2Bb&url=https%3A%2F%2Fx.test%2F%3Fa%3D1+2&empty=".utf8)))
        XCTAssertEqual(form["key"], "biqli_sk_a+b")
        XCTAssertEqual(form["url"], "https://x.test/?a=1 2")
        XCTAssertEqual(form["empty"], "")
        XCTAssertNil(form["missing"])
    }
}
