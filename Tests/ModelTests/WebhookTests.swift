import Core
import XCTest

@testable import Model

final class WebhookSignatureTests: XCTestCase {
    /// The Standard Webhooks libraries' own example (checked against the `standardwebhooks`
    /// package from PyPI).
    func testTheSpecificationsExampleSignature() {
        let header = WebhookSignature.header(
            secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
            timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8))
        XCTAssertEqual(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    func testBothSecretsSignDuringTheOverlapOnly() {
        var e = WebhookEndpoint(
            id: "biq_whk_1", url: "https://x.example/", eventTypes: [.openCreated], secret: "whsec_new", createdAt: 0,
            updatedAt: 0)
        e.previousSecret = "whsec_old"
        e.previousSecretExpiresAt = 1_000
        XCTAssertEqual(e.signingSecrets(at: 999), ["whsec_new", "whsec_old"])
        XCTAssertEqual(e.signingSecrets(at: 1_000), ["whsec_new"])
        let a = WebhookSecret.make()
        let b = WebhookSecret.make()
        let header = WebhookSignature.header(secrets: [a, b], id: "msg_1", timestamp: 5, body: [1])
        XCTAssertEqual(header.split(separator: " ").count, 2)
        XCTAssertTrue(header.hasPrefix("v1,"))
    }

    func testSecretsAreWhsecAndBase64OfThirtyTwoBytes() {
        let s = WebhookSecret.make()
        XCTAssertTrue(s.hasPrefix("whsec_"))
        XCTAssertEqual(WebhookSecret.key(s)?.count, 32)
        XCTAssertNotEqual(s, WebhookSecret.make())
        XCTAssertNil(WebhookSecret.key("whsec_AAAA"))  // 3 bytes: under 24
        XCTAssertNil(WebhookSecret.key("sk_" + String(s.dropFirst(6))))
        XCTAssertEqual(WebhookSecret.hint(s), "whsec_…" + String(s.suffix(4)))
    }

    func testBase64RoundTripsAndRefusesNonCanonicalText() {
        for n in 0..<70 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes)
        }
        XCTAssertEqual(Base64.encode(Array("foobar".utf8)), "Zm9vYmFy")
        XCTAssertEqual(Base64.encode(Array("fo".utf8)), "Zm8=")
        XCTAssertNil(Base64.decode("Zm8"))
        XCTAssertNil(Base64.decode("Zm=8"))
        XCTAssertNil(Base64.decode("Zm8=Zm8="))
        XCTAssertNil(Base64.decode("Zm-_"))
    }
}

final class WebhookRetryScheduleTests: XCTestCase {
    let s = WebhookRetrySchedule()

    /// Without jitter (random 0.5) the written schedule: 11 attempts, the last ~63.5 h in.
    func testTheStandardScheduleEndsWithinThreeDays() {
        var now: Int64 = 0
        var times: [Int64] = [0]
        var attempt = 1
        while let next = s.next(afterAttempt: attempt, startedAt: 0, now: now, retryAfter: nil, random: 0.5) {
            times.append(next)
            now = next
            attempt += 1
        }
        XCTAssertEqual(times.count, 11)
        XCTAssertEqual(times[1], 5_000)
        XCTAssertEqual(times[2], 305_000)
        let total: Int64 = WebhookRetrySchedule.standardDelays.reduce(0, +) * 1_000
        XCTAssertEqual(total, 228_905_000)
        XCTAssertEqual(times.last, total)
        XCTAssertLessThanOrEqual(times.last!, WebhookRetrySchedule.window)
    }

    func testJitterIsWithinTwentyPercent() {
        XCTAssertEqual(s.next(afterAttempt: 2, startedAt: 0, now: 0, retryAfter: nil, random: 0), 240_000)
        XCTAssertEqual(s.next(afterAttempt: 2, startedAt: 0, now: 0, retryAfter: nil, random: 0.999_999), 359_999)
    }

    func testRetryAfterIsHonouredAndCapped() {
        XCTAssertEqual(s.next(afterAttempt: 1, startedAt: 0, now: 0, retryAfter: 60_000, random: 0.5), 60_000)
        // Sooner than the schedule: the schedule.
        XCTAssertEqual(s.next(afterAttempt: 3, startedAt: 0, now: 0, retryAfter: 1_000, random: 0.5), 1_800_000)
        XCTAssertEqual(
            s.next(afterAttempt: 1, startedAt: 0, now: 0, retryAfter: 30 * 3_600_000, random: 0.5), 24 * 3_600_000)
    }

    func testNothingIsScheduledPastTheWindow() {
        let late = WebhookRetrySchedule.window - 1_000
        XCTAssertNil(s.next(afterAttempt: 1, startedAt: 0, now: late, retryAfter: nil, random: 0.5))
        XCTAssertNil(s.next(afterAttempt: 11, startedAt: 0, now: 0, retryAfter: nil, random: 0.5))
    }

    func testDelaysFromTheSetting() {
        XCTAssertEqual(WebhookRetrySchedule(parsing: "1, 2,3")?.delays, [1, 2, 3])
        XCTAssertNil(WebhookRetrySchedule(parsing: ""))
        XCTAssertNil(WebhookRetrySchedule(parsing: "1,,2"))
        XCTAssertNil(WebhookRetrySchedule(parsing: "0"))
        XCTAssertNil(WebhookRetrySchedule(parsing: "86401"))
        XCTAssertNil(WebhookRetrySchedule(parsing: Array(repeating: "1", count: 21).joined(separator: ",")))
    }

    func testFiveDaysOfFailuresDisable() {
        let day: Int64 = 86_400_000
        XCTAssertFalse(WebhookRetrySchedule.disables(failingSince: nil, now: 10 * day))
        XCTAssertFalse(WebhookRetrySchedule.disables(failingSince: 0, now: 5 * day - 1))
        XCTAssertTrue(WebhookRetrySchedule.disables(failingSince: 0, now: 5 * day))
    }
}

final class WebhookEventTests: XCTestCase {
    func testTheBodyIsTypeTimestampAndData() throws {
        let e = WebhookEvent(
            type: .linkDeleted, appId: nil, linkId: "biq_lnk_1", at: 1_700_000_000_123, data: ["id": "biq_lnk_1"])
        XCTAssertEqual(
            String(decoding: e.body, as: UTF8.self),
            #"{"type":"link.deleted","timestamp":"2023-11-14T22:13:20.123Z","data":{"id":"biq_lnk_1"}}"#)
        XCTAssertTrue(e.id.hasPrefix("msg_"))
        // In creation order within the process (ULID's sequence), whatever the event's time.
        XCTAssertTrue(ULID.isValid(e.id.dropFirst(4)))
        let later = WebhookEvent(type: .linkDeleted, appId: nil, linkId: nil, at: 1, data: [:])
        XCTAssertGreaterThan(later.id, e.id)
    }

    /// A lead's or sale's event is named by the event's own ULID and carries its stored
    /// answer at its time: made again from an erased answer, only the answer differs.
    func testAConversionsEventIsNamedByItsOwnId() throws {
        let sale = ConversionEvent(
            id: "biq_sev_01ARZ3NDEKTSV4RRFFQ69G5FAV", type: .sale, eventId: "e", idempotencyKeyHash: [1],
            requestHash: [2], eventName: "Purchase", customerId: "biq_cus_1", clickId: "biq_clk_1",
            linkId: "biq_lnk_1", occurredAt: 3, createdAt: 1_700_000_000_123,
            response: Array(#"{"customer":{"name":"Ann"}}"#.utf8))
        let e = WebhookEvent.conversionCreated(sale, appId: "biq_mapp_1")
        XCTAssertEqual(e.id, "msg_01ARZ3NDEKTSV4RRFFQ69G5FAV")
        XCTAssertEqual(WebhookEvent.messageId(conversion: sale), e.id)
        XCTAssertEqual(e.type, .saleCreated)
        XCTAssertEqual(e.appId, "biq_mapp_1")
        XCTAssertEqual(e.linkId, "biq_lnk_1")
        XCTAssertEqual(e.at, sale.createdAt)
        XCTAssertEqual(
            String(decoding: e.body, as: UTF8.self),
            #"{"type":"sale.created","timestamp":"2023-11-14T22:13:20.123Z","data":{"customer":{"name":"Ann"}}}"#)
        var lead = sale
        lead.type = .lead
        lead.id = "biq_lev_01ARZ3NDEKTSV4RRFFQ69G5FAW"
        lead.response = Array(#"{"customer":{"name":null}}"#.utf8)
        let again = WebhookEvent.conversionCreated(lead, appId: nil)
        XCTAssertEqual(again.id, "msg_01ARZ3NDEKTSV4RRFFQ69G5FAW")
        XCTAssertEqual(
            String(decoding: again.body, as: UTF8.self),
            #"{"type":"lead.created","timestamp":"2023-11-14T22:13:20.123Z","data":{"customer":{"name":null}}}"#)
    }

    /// What the app was told, after what it sent; nothing else of the match.
    func testOpenCreatedCarriesTheAppsAnswer() throws {
        let answer =
            #"{"open":{"id":"biq_open_1","firstOpen":true,"matchedBy":"probabilistic","confidence":"low"},"click":null,"link":null,"attribution":null}"#
        let open = OpenEvent(
            id: "biq_open_1", appId: "biq_mapp_1", appInstanceId: "inst", eventId: "evt", idempotencyKeyHash: [1],
            requestHash: [2], platform: .ios, matchedBy: .probabilistic, firstOpen: true, sdkVersion: "1",
            linkId: "biq_lnk_1", clickId: "biq_clk_1", at: 5, storedResponse: Array(answer.utf8), receipt: nil,
            receiptExpiresAt: nil, receiptInput: nil)
        let e = WebhookEvent.openCreated(open)
        XCTAssertEqual(e.type, .openCreated)
        XCTAssertEqual(e.appId, "biq_mapp_1")
        XCTAssertEqual(e.linkId, "biq_lnk_1")
        let body = try JSONParser.parse(e.body)
        guard case .object(let top) = body, case .object(let data)? = top.first(where: { $0.0 == "data" })?.1 else {
            return XCTFail("no data")
        }
        XCTAssertEqual(
            data.map(\.0), ["appId", "appInstanceId", "platform", "eventId", "open", "click", "link", "attribution"])
        XCTAssertFalse(String(decoding: e.body, as: UTF8.self).contains("biq_clk_1"))
    }

    func testEndpointFilters() {
        let e = WebhookEndpoint(
            id: "biq_whk_1", url: "https://x.example/", eventTypes: [.openCreated], appIds: ["a"], secret: "s",
            createdAt: 0, updatedAt: 0)
        XCTAssertTrue(e.wants(.openCreated, appId: "a", linkId: nil))
        XCTAssertFalse(e.wants(.openCreated, appId: "b", linkId: nil))
        XCTAssertFalse(e.wants(.openCreated, appId: nil, linkId: nil))
        XCTAssertFalse(e.wants(.leadCreated, appId: "a", linkId: nil))
        XCTAssertEqual(WebhookEndpoint.parseStoredList(WebhookEndpoint.storedList(["x", "y"])), ["x", "y"])
    }

    func testTheClaimCapsEachEndpoint() {
        let candidates = [("a", 1), ("a", 2), ("b", 3), ("a", 4), ("c", 5), ("b", 6)].map {
            (endpointId: $0.0, key: $0.1)
        }
        XCTAssertEqual(WebhookClaimPlan.choose(candidates, limit: 10, perEndpoint: 1), [1, 3, 5])
        XCTAssertEqual(WebhookClaimPlan.choose(candidates, limit: 10, perEndpoint: 2), [1, 2, 3, 5, 6])
        XCTAssertEqual(WebhookClaimPlan.choose(candidates, limit: 3, perEndpoint: 2), [1, 2, 3])
        XCTAssertEqual(WebhookClaimPlan.excluded(busy: ["a": 2, "b": 1], cap: 2), ["a"])
        XCTAssertEqual(WebhookClaimPlan.threadsPerEndpoint(threads: 4), 2)
        XCTAssertEqual(WebhookClaimPlan.threadsPerEndpoint(threads: 1), 1)
    }
}
