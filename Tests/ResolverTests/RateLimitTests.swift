import Core
import Model
import Store
import XCTest

@testable import Resolver

final class RateLimitTests: XCTestCase {
    private func limits(
        app: Int = 0, address: Int = 0, instance: Int = 0, token: Int = 0, failures: Int = 0
    ) -> RateLimits {
        RateLimits(
            perApp: app, perSourceAddress: address, perAppInstance: instance, perHandoffToken: token,
            failuresPerSourceAddress: failures)
    }

    func testDefaultsAreTheSeeds() {
        let d = RateLimits()
        XCTAssertEqual([d.perApp, d.perSourceAddress, d.perAppInstance, d.perHandoffToken], [3_000, 120, 30, 20])
        XCTAssertEqual(d.failuresPerSourceAddress, 10)
    }

    func testTheOtherTrackCallsHaveTheirOwnBuckets() {
        let d = RateLimits()
        XCTAssertEqual([d.trackClickPerAddress, d.trackClickPerKey, d.conversionsPerKey], [120, 6_000, 6_000])
        var l = limits()
        l.trackClickPerAddress = 6
        l.trackClickPerKey = 3
        l.conversionsPerKey = 2
        let w = World(limits: l)
        let r = w.resolver
        for _ in 0..<6 { XCTAssertNil(r.admit(.clickAddress, "198.51.100.1", nowMillis: w.now)) }
        XCTAssertEqual(r.admit(.clickAddress, "198.51.100.1", nowMillis: w.now), 10, "one every 10 s")
        XCTAssertNil(r.admit(.clickAddress, "198.51.100.2", nowMillis: w.now), "per address")
        // The same text in another bucket is another key.
        for _ in 0..<3 { XCTAssertNil(r.admit(.clickKey, "198.51.100.1", nowMillis: w.now)) }
        XCTAssertEqual(r.admit(.clickKey, "198.51.100.1", nowMillis: w.now), 20)
        for _ in 0..<2 { XCTAssertNil(r.admit(.conversionKey, "sk_1", nowMillis: w.now)) }
        XCTAssertEqual(r.admit(.conversionKey, "sk_1", nowMillis: w.now), 30)
        XCTAssertNil(r.admit(.conversionKey, "sk_1", nowMillis: w.now + 30_000), "after Retry-After")
        // The resolver's own buckets are untouched by them (all off here).
        XCTAssertEqual(w.resolve(w.android()).status, 200)
        // A limit of 0 switches its bucket off.
        let off = World(limits: .unlimited).resolver
        for _ in 0..<1_000 { XCTAssertNil(off.admit(.clickAddress, "a", nowMillis: 0)) }
    }

    func testSourceAddressLimitAnswers429WithRetryAfter() {
        let w = World(limits: limits(address: 120))
        for _ in 0..<120 { XCTAssertEqual(w.resolve(w.android()).status, 200) }
        let a = w.resolve(w.android())
        a.assertError(429, "rate_limited")
        XCTAssertEqual(a.header("Retry-After"), "1", "one request every 0.5 s, rounded up to whole seconds")
        var elsewhere = w.android()
        elsewhere.sourceAddress = "198.51.100.2"
        XCTAssertEqual(w.resolve(elsewhere).status, 200, "per address")
        w.now += 1_000
        XCTAssertEqual(w.resolve(w.android()).status, 200, "after Retry-After")
    }

    func testAppInstanceLimitIsThirtyPerMinute() {
        let w = World(limits: limits(instance: 30))
        let instance = "install_" + SDKRequest.hex(32, upper: false)
        for _ in 0..<30 { XCTAssertEqual(w.resolve(w.android(instance: instance)).status, 200) }
        let a = w.resolve(w.android(instance: instance))
        a.assertError(429, "rate_limited")
        XCTAssertEqual(a.header("Retry-After"), "2")
        XCTAssertEqual(w.resolve(w.android()).status, 200, "another instance")
        w.now += 2_000
        XCTAssertEqual(w.resolve(w.android(instance: instance)).status, 200)
    }

    func testAppLimitCountsEveryAuthenticatedRequest() {
        let w = World(limits: limits(app: 5))
        for _ in 0..<5 { XCTAssertEqual(w.resolve(w.ios()).status, 200) }
        let a = w.resolve(w.ios())
        a.assertError(429, "rate_limited")
        XCTAssertEqual(a.header("Retry-After"), "12")
        var other = SDKRequest.ios(app: w.otherAppId, key: w.otherAppKey)
        other.probabilisticAllowed = false
        XCTAssertEqual(w.resolve(other).status, 200, "per app")
    }

    func testHandoffTokenLimitIsTwentyPerMinute() {
        let w = World(limits: limits(token: 20))
        let token = w.addHandoff(platform: .android).token
        var owner = w.android()
        owner.handoffToken = token
        owner.firstOpen = false
        for _ in 0..<20 {
            var r = w.android(instance: owner.appInstanceId)
            r.handoffToken = token
            r.firstOpen = false
            XCTAssertEqual(w.resolve(r).status, 200)
        }
        var r = w.android(instance: owner.appInstanceId)
        r.handoffToken = token
        let a = w.resolve(r)
        a.assertError(429, "rate_limited")
        XCTAssertEqual(a.header("Retry-After"), "3")
    }

    func testRepeatedInvalidKeysFromOneAddressHitTheFailureBucket() {
        let w = World(limits: limits(failures: 10))
        for _ in 0..<10 {
            var bad = w.ios()
            bad.publishableKey = World.makeKey()
            w.resolve(bad).assertError(401, "invalid_mobile_key")
        }
        var bad = w.ios()
        bad.publishableKey = World.makeKey()
        let blocked = w.resolve(bad)
        blocked.assertError(429, "rate_limited")
        XCTAssertEqual(blocked.header("Retry-After"), "6")
        var malformed = w.ios()
        malformed.publishableKey = "not-a-key"
        w.resolve(malformed).assertError(429, "rate_limited")
        var elsewhere = w.ios()
        elsewhere.sourceAddress = "198.51.100.3"
        elsewhere.publishableKey = World.makeKey()
        w.resolve(elsewhere).assertError(401, "invalid_mobile_key")
        w.now += 6_000
        w.resolve(bad).assertError(401, "invalid_mobile_key")
    }

    /// Issue 14: one device with a stale key must not lock every app behind the same
    /// address (a NAT) out: the failure bucket refuses only further invalid attempts.
    func testASpentFailureBucketStillLetsValidKeysFromTheSameAddressThrough() {
        let w = World(limits: limits(failures: 3))
        var stale = w.android()
        stale.publishableKey = World.makeKey()
        for _ in 0..<3 { w.resolve(stale).assertError(401, "invalid_mobile_key") }
        w.resolve(stale).assertError(429, "rate_limited")
        for _ in 0..<20 {
            w.resolve(w.ios()).assertMatch("none")
            XCTAssertEqual(w.resolve(SDKRequest.android(app: w.otherAppId, key: w.otherAppKey)).status, 200)
        }
        w.resolve(stale).assertError(429, "rate_limited")
    }

    func testRepeatedUnknownHandoffsFromOneAddressHitTheFailureBucketButValidTokensStillMatch() {
        let w = World(limits: limits(failures: 10))
        for _ in 0..<10 {
            var r = w.android()
            r.handoffToken = World.makeToken()
            w.resolve(r).assertError(404, "resource_not_found")
        }
        var unknown = w.android()
        unknown.handoffToken = World.makeToken()
        let blocked = w.resolve(unknown)
        blocked.assertError(429, "rate_limited")
        XCTAssertEqual(blocked.header("Retry-After"), "6")
        // Not invalid attempts: answered as usual from the same address.
        w.resolve(w.android()).assertMatch("none")
        var valid = w.android()
        valid.handoffToken = w.addHandoff(platform: .android).token
        w.resolve(valid).assertMatch("exact_install_referrer")
        // A malformed token is refused on the loop, without the writer.
        var malformed = w.android()
        malformed.handoffToken = "bqmh_short"
        let before = w.store.bodiesRun
        w.resolve(malformed).assertError(429, "rate_limited")
        XCTAssertEqual(w.store.bodiesRun, before)
    }

    func testRateLimitedAnswerIsSynchronousAndNeverReachesTheWriter() {
        let w = World(limits: limits(address: 1))
        XCTAssertEqual(w.resolve(w.ios()).status, 200)
        let before = w.store.bodiesRun
        let answered = Locked(false)
        w.resolver.resolve(w.ios().input(now: w.now)) { output in
            XCTAssertEqual(output.status, 429)
            answered.value = true
        }
        XCTAssertTrue(answered.value, "completed before resolve returned")
        XCTAssertEqual(w.store.bodiesRun, before)
    }

    func testAddressIsLimitedBeforeHeadersAreRead() {
        let w = World(limits: limits(address: 2))
        for _ in 0..<2 {
            var r = w.ios()
            r.headerOverrides = [("x-biq-sdk", nil)]
            w.resolve(r).assertError(400, "invalid_headers")
        }
        w.resolve(w.ios()).assertError(429, "rate_limited")
    }
}
