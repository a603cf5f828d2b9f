import XCTest

@testable import Edge

/// The per-loop helpers of the visit path: key syntax and random bytes.
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

    func testRandomBytesLookRandom() {
        // 64 KiB of output: every byte value shows up, none more than twice its share,
        // and no two draws alike.
        var counts = [Int](repeating: 0, count: 256)
        var draws = Set<[UInt8]>()
        for _ in 0..<2_048 {
            let bytes = VisitLoops.randomBytes(32)
            XCTAssertEqual(bytes.count, 32)
            draws.insert(bytes)
            for byte in bytes { counts[Int(byte)] += 1 }
        }
        XCTAssertEqual(draws.count, 2_048)
        XCTAssertGreaterThan(counts.min()!, 0)
        XCTAssertLessThan(counts.max()!, 2 * 65_536 / 256)
    }
}
