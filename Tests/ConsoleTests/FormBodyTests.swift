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

    func testTheFirstValueOfARepeatedNameIsTheOneRead() throws {
        let form = try XCTUnwrap(FormBody(Array("csrf=a&csrf=b&&=x&flag".utf8)))
        XCTAssertEqual(form["csrf"], "a")
        XCTAssertEqual(form["flag"], "")
        XCTAssertEqual(form.pairs.count, 4)
    }

    func testUTF8AndSpacesAroundTextFields() throws {
        let form = try XCTUnwrap(FormBody(Array("title=+%C3%89t%C3%A9+%F0%9F%8E%89+".utf8)))
        XCTAssertEqual(form["title"], " Été 🎉 ")
        XCTAssertEqual(form.text("title"), "Été 🎉")
        XCTAssertEqual(form.text("absent"), "")
    }

    func testBrokenEscapesAndBytesThatAreNotUTF8AreRefused() {
        XCTAssertNil(FormBody(Array("a=%".utf8)))
        XCTAssertNil(FormBody(Array("a=%4".utf8)))
        XCTAssertNil(FormBody(Array("a=%zz".utf8)))
        XCTAssertNil(FormBody(Array("a=%FF%FE".utf8)))
        XCTAssertNil(FormBody([0x61, 0x3D, 0xC3]))
    }

    func testEncodingRoundTripsThroughDecoding() throws {
        for value in ["a b&c=d/é?#%+", "", "biq_lnk_01ARZ", "\"<>'"] {
            let encoded = FormBody.encode(value)
            XCTAssertTrue(encoded.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: " ") })
            XCTAssertEqual(try XCTUnwrap(FormBody(Array(("v=" + encoded).utf8)))["v"], value)
            XCTAssertEqual(FormBody.percentDecode(encoded.utf8), value)
        }
        // A path segment keeps its plus.
        XCTAssertEqual(FormBody.percentDecode("a+b%2F".utf8), "a+b/")
    }
}
