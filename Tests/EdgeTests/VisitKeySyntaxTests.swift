import XCTest

@testable import Edge

/// The visit path's link-key syntax (the base64url alphabet, 1 to 64 bytes).
final class VisitKeySyntaxTests: XCTestCase {
    func testKeyBytesAreExactlyTheKeyAlphabet() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".utf8)
        for byte in UInt8.min...UInt8.max {
            let key = Substring("ab" + String(decoding: [byte], as: UTF8.self))
            XCTAssertEqual(VisitFlow.isPossibleKey(key), alphabet.contains(byte), "byte \(byte)")
        }
        XCTAssertTrue(VisitFlow.isPossibleKey("invite"))
        XCTAssertTrue(VisitFlow.isPossibleKey(Substring(String(repeating: "a", count: 64))))
        XCTAssertFalse(VisitFlow.isPossibleKey(Substring(String(repeating: "a", count: 65))))
        XCTAssertFalse(VisitFlow.isPossibleKey(""))
        XCTAssertFalse(VisitFlow.isPossibleKey("in.vite"))
    }
}
