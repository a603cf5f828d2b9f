import Store
import XCTest

@testable import Certificates

/// When to renew and when to retry: pure functions of the clock and a random source.
final class RenewalPolicyTests: XCTestCase {
    /// A deterministic source (SplitMix64), so that each run checks the same values.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    let day: Int64 = 86_400_000
    let policy = RenewalPolicy()

    func testRenewalComesAtTwoThirdsOfTheLifetimeLessAtMostAThirtiethAsJitter() {
        var random = Seeded(state: 1)
        let notBefore: Int64 = 1_000 * day
        let notAfter = notBefore + 90 * day
        var seen = Set<Int64>()
        for _ in 0..<500 {
            let at = policy.renewalTime(notBefore: notBefore, notAfter: notAfter, random: &random)
            XCTAssertLessThanOrEqual(at, notBefore + 60 * day)
            XCTAssertGreaterThanOrEqual(at, notBefore + 60 * day - 3 * day)
            seen.insert(at)
        }
        XCTAssertGreaterThan(seen.count, 400, "jittered, not one instant for a fleet")
    }

    func testTheBackoffDoublesFromFiveMinutesUpToSixHoursWithinTenPercent() {
        var random = Seeded(state: 2)
        let minute: Int64 = 60_000
        for (failures, plain) in [
            (1, 5 * minute), (2, 10 * minute), (3, 20 * minute), (4, 40 * minute),
            (7, 320 * minute), (8, 360 * minute), (40, 360 * minute),
        ] {
            for _ in 0..<50 {
                let wait = policy.backoff(failures: failures, random: &random)
                XCTAssertGreaterThanOrEqual(wait, plain - plain / 10, "failure \(failures)")
                XCTAssertLessThanOrEqual(wait, plain + plain / 10, "failure \(failures)")
            }
        }
    }

    func testRetryAfterAndRateLimitsLengthenTheWait() {
        var random = Seeded(state: 3)
        let now: Int64 = 5 * day
        let plain = ACMEProblem(type: ACMEProblem.acmePrefix + "connection", detail: "refused")
        XCTAssertLessThanOrEqual(
            policy.nextAttempt(after: plain, failures: 1, now: now, random: &random), now + 330_000)

        var asked = plain
        asked.retryAfterMilliseconds = 2 * 3_600_000
        XCTAssertEqual(policy.nextAttempt(after: asked, failures: 1, now: now, random: &random), now + 2 * 3_600_000)

        let limited = ACMEProblem(type: ACMEProblem.acmePrefix + "rateLimited", detail: "too many")
        XCTAssertGreaterThanOrEqual(
            policy.nextAttempt(after: limited, failures: 1, now: now, random: &random), now + 3_600_000,
            "an hour at least when the CA limits the rate without saying how long")
        var limitedFor = limited
        limitedFor.retryAfterMilliseconds = 30 * 3_600_000
        XCTAssertEqual(
            policy.nextAttempt(after: limitedFor, failures: 1, now: now, random: &random), now + 30 * 3_600_000)
    }

    func testAnOrderIsDueAtOnceWithoutACertificateAtRenewalWithOneAndNeverBeforeTheNextAttempt() {
        var random = Seeded(state: 4)
        let now: Int64 = 10 * day
        XCTAssertEqual(policy.due(nil, now: now, random: &random), now)

        var row = StoredCertificate(hostname: "go.example.test", status: .pending, updatedAt: now)
        XCTAssertEqual(policy.due(row, now: now, random: &random), now)
        row.nextAttemptAt = now + 600_000
        XCTAssertEqual(policy.due(row, now: now, random: &random), now + 600_000, "backing off")

        row = StoredCertificate(
            hostname: "go.example.test", status: .valid, chainPEM: "chain", keyPEM: "key", notBefore: now - day,
            notAfter: now + 89 * day, renewalAt: now + 59 * day, updatedAt: now)
        XCTAssertEqual(policy.due(row, now: now, random: &random), now + 59 * day)

        row.notAfter = now - 1
        XCTAssertEqual(policy.due(row, now: now, random: &random), now, "expired: at once")
        row.nextAttemptAt = now + 1_000
        XCTAssertEqual(policy.due(row, now: now, random: &random), now + 1_000)
    }

    func testARenewalWindowGivesATimeInsideIt() {
        var random = Seeded(state: 5)
        let now: Int64 = 100 * day
        let window = RenewalWindow(start: now + day, end: now + 2 * day)
        for _ in 0..<200 {
            let at = policy.renewalTime(in: window, now: now, random: &random)
            XCTAssertGreaterThanOrEqual(at, window.start)
            XCTAssertLessThan(at, window.end)
        }
        XCTAssertEqual(
            policy.renewalTime(in: RenewalWindow(start: now - 2 * day, end: now - day), now: now, random: &random),
            now, "a window in the past: renew now")
        let open = policy.renewalTime(in: RenewalWindow(start: now - day, end: now + day), now: now, random: &random)
        XCTAssertTrue((now..<(now + day)).contains(open), "not before now")
    }
}
