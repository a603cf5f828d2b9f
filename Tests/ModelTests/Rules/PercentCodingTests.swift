import XCTest

@testable import Model

final class PercentCodingTests: XCTestCase {
    func testEncodeKeepsOnlyUnreservedCharacters() {
        XCTAssertEqual(PercentCoding.encode("aZ09-._~".utf8), "aZ09-._~")
        XCTAssertEqual(PercentCoding.encode("a=b&c#d+e%f g/é".utf8), "a%3Db%26c%23d%2Be%25f%20g%2F%C3%A9")
    }

    func testDecodeInvertsEncodeForEveryByteThatIsValidUTF8() {
        let text = "biqli_token=bqmh_x&utm=a b+c%d#e/é😀"
        XCTAssertEqual(PercentCoding.decode(PercentCoding.encode(text.utf8).utf8, plusAsSpace: false), text)
    }

    func testDecodePlusHandling() {
        XCTAssertEqual(PercentCoding.decode("a+b".utf8, plusAsSpace: true), "a b")
        XCTAssertEqual(PercentCoding.decode("a+b".utf8, plusAsSpace: false), "a+b")
    }

    func testDecodeRefusesBrokenEscapesAndInvalidUTF8() {
        XCTAssertNil(PercentCoding.decode("%".utf8, plusAsSpace: true))
        XCTAssertNil(PercentCoding.decode("%4".utf8, plusAsSpace: true))
        XCTAssertNil(PercentCoding.decode("%4g%41".utf8, plusAsSpace: true))
        XCTAssertNil(PercentCoding.decode("%C3".utf8, plusAsSpace: true))
        XCTAssertEqual(PercentCoding.decode("%41%62".utf8, plusAsSpace: true), "Ab")
        XCTAssertEqual(PercentCoding.decode("".utf8, plusAsSpace: true), "")
    }
}
