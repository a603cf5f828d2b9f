import Core
import Model
import Store
import XCTest

@testable import Resolver

final class IdempotencyTests: XCTestCase {
    func testIdenticalRetryReplaysStoredResultWithNewRequestIdAndNoReceiptOnceItExpired() {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        let first = w.resolve(r)
        first.assertMatch("exact_install_referrer")
        XCTAssertNotNil(first.receipt)

        w.now += 3 * 86_400_000  // days later, and after the handoff expired
        var retry = r
        retry.requestId = "req_" + SDKRequest.hex(32, upper: false)
        let again = w.resolve(retry)
        again.assertMatch("exact_install_referrer")
        XCTAssertEqual(again.storedPart, first.storedPart)
        XCTAssertEqual(again.requestId, retry.requestId)
        XCTAssertEqual(again.header("X-Biq-Request-Id"), retry.requestId)
        XCTAssertNil(again.receipt)
        XCTAssertTrue(again.json["attributionReceipt"]?.isNull ?? false)
        XCTAssertEqual(w.openEvents.count, 1)
    }

    /// Issue 14: an SDK whose first answer was lost retries the same event and must
    /// still get its proof, the very receipt of the first answer, until it expires.
    func testAReplayReturnsTheStoredReceiptUntilItExpires() throws {
        let w = World()
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite?ref=BOB"
        let first = w.resolve(r)
        first.assertMatch("exact_app_link")
        let receipt = try XCTUnwrap(first.receipt)
        let verified = try XCTUnwrap(ReceiptVerifier.verify(receipt, jwks: w.keyring.jwks(now: w.now)))
        let expiresAt = try XCTUnwrap(verified.claims["exp"]?.intValue) * 1000
        XCTAssertEqual(expiresAt, w.now + 600_000)

        w.now = expiresAt - 1
        let inTime = w.resolve(r)
        inTime.assertMatch("exact_app_link")
        XCTAssertEqual(inTime.receipt, receipt, "the stored receipt, byte for byte")
        XCTAssertEqual(inTime.storedPart, first.storedPart)

        w.now = expiresAt
        let late = w.resolve(r)
        late.assertMatch("exact_app_link")
        XCTAssertEqual(late.storedPart, first.storedPart)
        XCTAssertTrue(late.json["attributionReceipt"]?.isNull ?? false, "expired: null, not an expired receipt")
        XCTAssertEqual(w.openEvents.count, 1)
    }

    /// The SDKs send the eventId as Idempotency-Key (kept without a hash); other
    /// clients may send their own key (kept as its hash): both replays carry the receipt.
    func testAReplayCarriesTheReceiptWhetherTheKeyIsTheEventIdOrItsOwn() throws {
        let w = World()
        for ownKey in [false, true] {
            var r = w.android()
            r.handoffToken = w.addHandoff(platform: .android).token
            if ownKey { r.idempotencyKey = "client-key-" + SDKRequest.hex(20, upper: false) }
            let first = w.resolve(r)
            first.assertMatch("exact_install_referrer")
            let receipt = try XCTUnwrap(first.receipt)
            var retry = r
            retry.requestId = "req_" + SDKRequest.hex(32, upper: false)
            let again = w.resolve(retry)
            again.assertMatch("exact_install_referrer")
            XCTAssertEqual(again.receipt, receipt, "own key: \(ownKey)")
            XCTAssertEqual(again.openId, first.openId)
        }
        XCTAssertEqual(w.openEvents.count, 2)
        XCTAssertTrue(w.openEvents.allSatisfy { $0.receiptInput != nil && $0.receiptExpiresAt == w.now + 600_000 })
    }

    func testANoneAnswerStoresNoReceipt() {
        let w = World()
        let r = w.android()
        w.resolve(r).assertMatch("none")
        let again = w.resolve(r)
        again.assertMatch("none")
        XCTAssertTrue(again.json["attributionReceipt"]?.isNull ?? false)
        XCTAssertEqual(w.openEvents.map(\.receipt), [nil])
        XCTAssertEqual(w.openEvents.map(\.receiptExpiresAt), [nil])
    }

    func testReusedEventIdWithDifferentDataIsConflict() {
        let w = World()
        let r = w.ios()
        XCTAssertEqual(w.resolve(r).status, 200)
        var changed = r
        changed.firstOpen = false
        w.resolve(changed).assertError(409, "idempotency_conflict")
        var otherLink = r
        otherLink.deepLink = "https://go.example.test/invite"
        w.resolve(otherLink).assertError(409, "idempotency_conflict")
        XCTAssertEqual(w.openEvents.count, 1)
    }

    func testReusedIdempotencyKeyWithAnotherEventIdIsConflict() {
        let w = World()
        let r = w.ios()
        XCTAssertEqual(w.resolve(r).status, 200)
        var other = w.ios(instance: r.appInstanceId)
        other.idempotencyKey = r.idempotencyKey
        w.resolve(other).assertError(409, "idempotency_conflict")
    }

    func testSameEventIdWithARegeneratedIdempotencyKeyIsConflict() {
        let w = World()
        let r = w.android()
        XCTAssertEqual(w.resolve(r).status, 200)
        var other = r
        other.idempotencyKey = "open_" + SDKRequest.hex(32, upper: false)
        w.resolve(other).assertError(409, "idempotency_conflict")
    }

    func testShuffledKeyOrderIsTheSameRequest() {
        let w = World()
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite?ref=BOB"
        r.domain = "go.example.test"
        let first = w.resolve(r)
        first.assertMatch("exact_app_link")
        for _ in 0..<5 {
            var shuffled = r
            shuffled.order = SDKRequest.defaultOrder.shuffled()
            shuffled.requestId = "req_" + SDKRequest.hex(32, upper: true)
            let again = w.resolve(shuffled)
            XCTAssertEqual(again.storedPart, first.storedPart)
            XCTAssertEqual(again.receipt, first.receipt)
        }
        XCTAssertEqual(w.openEvents.count, 1)
    }

    func testOmittedAndExplicitNullAndEmptyOsVersionAreTheSameRequest() {
        let w = World()
        var android = w.android()
        android.osVersion = ""
        android.appVersion = ""
        android.domain = nil
        XCTAssertTrue(String(decoding: android.body, as: UTF8.self).contains(#""domain":null"#))
        let first = w.resolve(android)
        XCTAssertEqual(first.status, 200)

        var omitted = android
        omitted.form = .ios  // the same data in the iOS shape: nulls omitted
        omitted.osVersion = nil
        omitted.appVersion = nil
        XCTAssertFalse(String(decoding: omitted.body, as: UTF8.self).contains("null"))
        let again = w.resolve(omitted)
        XCTAssertEqual(again.status, 200, again.bodyText)
        XCTAssertEqual(again.openId, first.openId)
        XCTAssertEqual(w.openEvents.count, 1)
    }

    func testOccurredAtIsComparedAsAnInstant() {
        let w = World()
        var r = w.ios()
        r.occurredAt = "2026-09-27T12:30:00Z"
        let first = w.resolve(r)
        r.occurredAt = "2026-09-27T14:30:00.000+02:00"
        XCTAssertEqual(w.resolve(r).openId, first.openId)
        r.occurredAt = "2026-09-27T12:30:00.001Z"
        w.resolve(r).assertError(409, "idempotency_conflict")
    }

    func testIdempotencyIsPerApp() {
        let w = World()
        let r = w.ios()
        XCTAssertEqual(w.resolve(r).status, 200)
        var other = SDKRequest.ios(app: w.otherAppId, key: w.otherAppKey, instance: r.appInstanceId)
        other.eventId = r.eventId
        other.idempotencyKey = r.idempotencyKey
        XCTAssertEqual(w.resolve(other).status, 200)
        XCTAssertEqual(w.openEvents.count, 2)
    }

    func testCanonicalFormIgnoresOrderEscapesAndNullForms() throws {
        let a = try OpenRequestValidator.validate(
            OpenRequestValidator.parse(
                Array(
                    #"{"eventId":"open_1234567890","appId":"biq_mapp_A","appInstanceId":"install_0123456789ab","platform":"ios","firstOpen":true,"probabilisticAllowed":true,"deepLink":"https:\/\/go.example.test\/invite","sdkVersion":"1.0.0"}"#
                        .utf8)))
        let b = try OpenRequestValidator.validate(
            OpenRequestValidator.parse(
                Array(
                    #"{"sdkVersion":"1.0.0","deepLink":"https://go.example.test/invite","probabilisticAllowed":true,"firstOpen":true,"platform":"ios","appInstanceId":"install_0123456789ab","appId":"biq_mapp_A","eventId":"open_1234567890","domain":null,"handoffToken":null,"attestation":{"x":1}}"#
                        .utf8)))
        let key = SHA256.hash("open_1234567890")
        XCTAssertEqual(
            CanonicalRequest.hash(a, idempotencyKeyHash: key, tokenHash: nil),
            CanonicalRequest.hash(b, idempotencyKeyHash: key, tokenHash: nil))
        var c = b
        c.probabilisticAllowed = false
        XCTAssertNotEqual(
            CanonicalRequest.hash(a, idempotencyKeyHash: key, tokenHash: nil),
            CanonicalRequest.hash(c, idempotencyKeyHash: key, tokenHash: nil))
    }

    func testMalformedTokenIsNotTheSameRequestAsNoToken() {
        let w = World()
        var r = w.android()
        r.handoffToken = "bqmh_not_a_real_token"
        w.resolve(r).assertError(404, "resource_not_found")
        var without = r
        without.handoffToken = nil
        w.resolve(without).assertMatch("none")
        w.resolve(r).assertError(409, "idempotency_conflict")
    }

    func testCanonicalFormCarriesNoTokenInClear() {
        let token = World.makeToken()
        var r = OpenRequest(
            eventId: "open_1234567890", appId: "a", appInstanceId: "install_0123456789ab", platform: .android,
            firstOpen: true, probabilisticAllowed: false, sdkVersion: "1")
        r.handoffToken = token
        let bytes = CanonicalRequest.bytes(r, idempotencyKeyHash: [], tokenHash: SHA256.hash(token))
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains(token))
    }
}
