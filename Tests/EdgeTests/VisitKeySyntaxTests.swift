import XCTest

@testable import Edge

/// The visit path's link-key syntax (a range test per byte).
final class VisitKeySyntaxTests: XCTestCase {
    func testKeyBytesAreExactlyTheKeyAlphabet() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".utf8)
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(VisitFlow.isKeyByte(byte), alphabet.contains(byte), "byte \(byte)")
        }
        XCTAssertTrue(VisitFlow.isPossibleKey("invite"))
        XCTAssertTrue(VisitFlow.isPossibleKey(Substring(String(repeating: "a", count: 64))))
        XCTAssertFalse(VisitFlow.isPossibleKey(Substring(String(repeating: "a", count: 65))))
        XCTAssertFalse(VisitFlow.isPossibleKey(""))
        XCTAssertFalse(VisitFlow.isPossibleKey("in.vite"))
    }
}
