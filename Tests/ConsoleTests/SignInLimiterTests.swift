import XCTest

@testable import Console

final class SignInLimiterTests: XCTestCase {
    let minute: Int64 = 60_000

    func testFiveWrongKeysPassAtOnceThenOneAMinute() {
        let limiter = SignInLimiter(policy: .init(burst: 5, intervalSeconds: 60))
        let t: Int64 = 1_000_000
        for n in 0..<5 {
            XCTAssertNil(limiter.retryAfter("203.0.113.9", now: t), "attempt \(n + 1)")
            limiter.recordFailure("203.0.113.9", now: t)
        }
        XCTAssertEqual(limiter.retryAfter("203.0.113.9", now: t), 60)
        XCTAssertEqual(limiter.retryAfter("203.0.113.9", now: t + 59_001), 1)
        XCTAssertNil(limiter.retryAfter("203.0.113.9", now: t + minute))
        limiter.recordFailure("203.0.113.9", now: t + minute)
        XCTAssertEqual(limiter.retryAfter("203.0.113.9", now: t + minute), 60, "one more a minute, not a new burst")
        // After five quiet minutes the whole burst is back.
        XCTAssertNil(limiter.retryAfter("203.0.113.9", now: t + 6 * minute))
    }

    func testAddressesAreCountedApart() {
        let limiter = SignInLimiter(policy: .init(burst: 1, intervalSeconds: 60))
        limiter.recordFailure("203.0.113.9", now: 0)
        XCTAssertNotNil(limiter.retryAfter("203.0.113.9", now: 0))
        XCTAssertNil(limiter.retryAfter("2001:db8::1", now: 0))
    }

    func testTheTableStaysBounded() {
        let limiter = SignInLimiter(policy: .init(burst: 5, intervalSeconds: 60))
        for n in 0..<(SignInLimiter.capacity + 10) { limiter.recordFailure("10.0.\(n / 256).\(n % 256)", now: 0) }
        // The newest address is still counted.
        for _ in 0..<5 { limiter.recordFailure("192.0.2.1", now: 0) }
        XCTAssertNotNil(limiter.retryAfter("192.0.2.1", now: 0))
    }
}
