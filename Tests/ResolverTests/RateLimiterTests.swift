import XCTest

@testable import Resolver

final class RateLimiterTests: XCTestCase {
    func testBurstOfExactlyTheLimitThenOneEveryInterval() {
        let l = RateLimiter(limit: 30, maxKeys: 1_000)
        for _ in 0..<30 { XCTAssertNil(l.acquire("k", nowMillis: 0)) }
        XCTAssertEqual(l.acquire("k", nowMillis: 0), 2_000_000)
        XCTAssertEqual(l.acquire("k", nowMillis: 1_500), 500_000)
        XCTAssertNil(l.acquire("k", nowMillis: 2_000))
        XCTAssertNotNil(l.acquire("k", nowMillis: 2_000))
        XCTAssertNil(l.acquire("k", nowMillis: 62_000), "a minute later the bucket has refilled")
    }

    func testRetryAfterIsWholeSecondsAtLeastOne() {
        XCTAssertEqual(ResolverLimiters.retryAfterSeconds(1), 1)
        XCTAssertEqual(ResolverLimiters.retryAfterSeconds(20_000), 1)
        XCTAssertEqual(ResolverLimiters.retryAfterSeconds(1_000_000), 1)
        XCTAssertEqual(ResolverLimiters.retryAfterSeconds(1_000_001), 2)
    }

    func testCheckDoesNotConsumeAndARefusedAcquireTakesNothing() {
        let l = RateLimiter(limit: 2, maxKeys: 1_000)
        for _ in 0..<5 { XCTAssertNil(l.check("a", nowMillis: 0)) }
        XCTAssertNil(l.acquire("a", nowMillis: 0))
        XCTAssertNil(l.acquire("a", nowMillis: 0))
        XCTAssertEqual(l.check("a", nowMillis: 0), 30_000_000)
        for _ in 0..<1_000 { XCTAssertNotNil(l.acquire("a", nowMillis: 0)) }
        XCTAssertNil(l.check("a", nowMillis: 30_000), "refused attempts do not push recovery out")
    }

    func testZeroLimitDisablesTheBucket() {
        let l = RateLimiter(limit: 0, maxKeys: 10)
        for _ in 0..<10_000 { XCTAssertNil(l.acquire("k", nowMillis: 0)) }
        XCTAssertEqual(l.trackedKeys, 0)
    }

    func testMemoryStaysBoundedUnderManyKeys() {
        let l = RateLimiter(limit: 10, maxKeys: 3_200)
        for i in 0..<50_000 { _ = l.acquire("addr-\(i)", nowMillis: 0) }
        XCTAssertLessThanOrEqual(l.trackedKeys, 3_200)
        // Keys that are back to full are dropped first.
        let m = RateLimiter(limit: 10, maxKeys: 3_200)
        for i in 0..<3_200 { _ = m.acquire("old-\(i)", nowMillis: 0) }
        for i in 0..<3_200 { _ = m.acquire("new-\(i)", nowMillis: 120_000) }
        XCTAssertLessThanOrEqual(m.trackedKeys, 3_200)
    }

    func testLimiterIsSafeAcrossThreads() {
        let l = RateLimiter(limit: 1_000, maxKeys: 10_000)
        let allowed = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine = 0
            for _ in 0..<500 where l.acquire("shared", nowMillis: 0) == nil { mine += 1 }
            let count = mine
            allowed.value += count
        }
        XCTAssertEqual(allowed.value, 1_000)
    }
}
