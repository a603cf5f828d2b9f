import XCTest

@testable import Core

/// `Clock.setBack` (tests only, `BIQLI_EDGE_TEST_CLOCK_BACK_MS`): every wall-clock read is
/// that much in the past; the monotonic clock is not moved; a negative value is no move.
final class ClockTests: XCTestCase {
    override func tearDown() { Clock.setBack(milliseconds: 0) }

    func testTheWallClockIsSetBackAndTheMonotonicOneIsNot() {
        let day: Int64 = 86_400_000
        let real = Int64(Clock.nowMilliseconds())
        let monotonic = Clock.monotonicNanoseconds()
        Clock.setBack(milliseconds: 3 * day)
        let back = Int64(Clock.nowMilliseconds())
        XCTAssertEqual(Double(real - back), Double(3 * day), accuracy: 1_000)
        XCTAssertEqual(Double(Clock.nowSeconds()), Double(back / 1_000), accuracy: 1)
        XCTAssertGreaterThanOrEqual(Clock.monotonicNanoseconds(), monotonic)
        Clock.setBack(milliseconds: -5)
        XCTAssertEqual(Double(Int64(Clock.nowMilliseconds())), Double(real), accuracy: 1_000)
    }
}
