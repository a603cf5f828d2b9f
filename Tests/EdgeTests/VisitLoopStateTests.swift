import XCTest

@testable import Edge

/// The per-loop helpers of the visit path: key syntax and the buffered CSPRNG.
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

    func testRandomBytesComeFromOnePageUntilItRunsOut() {
        var random = SecureRandomBuffer()
        XCTAssertEqual(random.remaining, 0)  // filled on first use, not at start-up
        let a = random.take(26)
        XCTAssertEqual(a.count, 26)
        XCTAssertEqual(random.remaining, SecureRandomBuffer.pageSize - 26)
        let b = random.take(26)
        XCTAssertNotEqual(a, b)
        _ = random.take(random.remaining - 10)
        let c = random.take(18)  // more than is left: a new page
        XCTAssertEqual(c.count, 18)
        XCTAssertEqual(random.remaining, SecureRandomBuffer.pageSize - 18)
    }

    func testRandomBytesLookRandom() {
        // 64 KiB of output: every byte value shows up, none more than twice its share.
        var random = SecureRandomBuffer()
        var counts = [Int](repeating: 0, count: 256)
        for _ in 0..<2_048 { for byte in random.take(32) { counts[Int(byte)] += 1 } }
        XCTAssertGreaterThan(counts.min()!, 0)
        XCTAssertLessThan(counts.max()!, 2 * 65_536 / 256)
    }
}
