import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Resolver

final class ResponseShapeTests: XCTestCase {
    private let sixKeys = ["open", "click", "link", "attribution", "attributionReceipt", "requestId"]

    func testNoneAnswerHasExactlySixKeysWithNulls() {
        let w = World()
        let a = w.resolve(w.ios())
        XCTAssertEqual(a.json.objectValue?.map(\.0), sixKeys)
        for k in ["click", "link", "attribution", "attributionReceipt"] { XCTAssertTrue(a.json[k]!.isNull, k) }
        XCTAssertEqual(a.open?.objectValue?.map(\.0), ["id", "firstOpen", "matchedBy", "confidence"])
        XCTAssertTrue(Identifier.isValid(a.openId ?? "", prefix: "biq_open_"))
        XCTAssertEqual(a.open?["firstOpen"], true)
        XCTAssertEqual(a.confidence, "none")
        XCTAssertEqual(a.header("Content-Type"), "application/json")
    }

    func testMatchedAnswerHasTheDocumentedObjects() {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        let a = w.resolve(r)
        XCTAssertEqual(a.json.objectValue?.map(\.0), sixKeys)
        XCTAssertEqual(a.json["click"]?.objectValue?.map(\.0), ["id"])
        XCTAssertEqual(a.json["link"]?.objectValue?.map(\.0), ["id", "shortUrl", "route"])
        XCTAssertEqual(a.json["attribution"]?.objectValue?.map(\.0), ["referralCode", "metadata", "dynamic"])
        XCTAssertTrue(a.route?.hasPrefix("/") ?? false)
        XCTAssertTrue(a.linkId?.hasPrefix("biq_lnk_") ?? false)
    }

    func testAttributionWithoutReferralCodeHasNullAndEmptyObjects() {
        let w = World()
        var r = w.ios()
        r.deepLink = "https://go.example.test/promo"
        let a = w.resolve(r)
        XCTAssertTrue(a.json["attribution"]?["referralCode"]?.isNull ?? false)
        XCTAssertEqual(a.json["attribution"]?["metadata"], JSONValue.object([]))
        XCTAssertEqual(a.json["attribution"]?["dynamic"], JSONValue.object([]))
    }

    func testBodyStaysUnder64KiBEvenWithOversizedStoredMetadata() {
        let w = World()
        let id = w.inviteId
        let huge = JSONValue.object((0..<100).map { ("k\($0)", .string(String(repeating: "m", count: 1_000))) })
        w.store.seed { $0.links[id]!.mobile!.metadata = huge }
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite"
        let a = w.resolve(r)
        a.assertMatch("exact_app_link")
        XCTAssertLessThanOrEqual(a.output.body.count, 65_536)
        XCTAssertEqual(a.json["attribution"]?["metadata"], JSONValue.object([]))
        XCTAssertNotNil(a.receipt)
    }

    func testErrorEnvelopes() {
        let w = World()
        let bad = w.resolve(w.ios().input(now: w.now, body: Array("x".utf8)))
        XCTAssertEqual(bad.json.objectValue?.map(\.0), ["error", "requestId"])
        XCTAssertEqual(bad.json["error"]?.objectValue?.map(\.0), ["code", "message"])
        var get = w.ios()
        get.method = "GET"
        XCTAssertEqual(w.resolve(get).json.objectValue?.map(\.0), ["error", "request_id"])
    }

    func testEveryErrorCaseMapsToItsOwnCodeAndStatus() {
        let all: [(ResolverError, Int, String)] = [
            (.methodNotAllowed, 405, "method_not_allowed"), (.invalidHeaders("m"), 400, "invalid_headers"),
            (.invalidMobileKey, 401, "invalid_mobile_key"), (.invalidRequest("m"), 400, "invalid_request"),
            (.validationError("m"), 422, "validation_error"), (.resourceNotFound("m"), 404, "resource_not_found"),
            (.mobileLinkingUnavailable, 403, "mobile_linking_unavailable"),
            (.mobileSDKUnavailable, 403, "mobile_sdk_unavailable"), (.idempotencyConflict, 409, "idempotency_conflict"),
            (.platformNotConfigured, 422, "platform_not_configured"), (.headerMismatch("m"), 422, "header_mismatch"),
            (.invalidProbabilisticDomain, 422, "invalid_probabilistic_domain"),
            (.platformMismatch, 422, "platform_mismatch"), (.handoffMismatch, 422, "handoff_mismatch"),
            (.rateLimited(retryAfterSeconds: 3), 429, "rate_limited"),
            (.internalServerError, 500, "internal_server_error"),
        ]
        XCTAssertEqual(Set(all.map(\.2)).count, all.count)
        for (e, status, code) in all {
            XCTAssertEqual(e.status, status)
            XCTAssertEqual(e.code, code)
            let out = ResponseFactory.error(e, requestId: "req_12345678")
            XCTAssertEqual(out.headers["Cache-Control"], "no-store")
            XCTAssertEqual(out.headers["X-Biq-Request-Id"], "req_12345678")
            XCTAssertEqual(out.headers["Retry-After"], code == "rate_limited" ? "3" : nil)
            XCTAssertEqual(out.headers["Allow"], code == "method_not_allowed" ? "POST" : nil)
        }
    }
}
