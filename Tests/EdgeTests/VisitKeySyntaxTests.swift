import XCTest

@testable import Edge

/// The per-loop helpers of the visit path: key syntax.
final class VisitLoopStateTests: XCTestCase {
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
