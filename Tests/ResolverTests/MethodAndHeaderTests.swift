import Core
import XCTest

@testable import Resolver

final class MethodAndHeaderTests: XCTestCase {
    func testOtherMethodsGet405WithAllowAndStandardEnvelope() {
        let w = World()
        for method in ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "post"] {
            var r = w.ios()
            r.method = method
            let a = w.resolve(r)
            a.assertError(405, "method_not_allowed")
            XCTAssertEqual(a.header("Allow"), "POST")
            XCTAssertEqual(a.json["request_id"]?.stringValue, r.requestId, "standard envelope uses request_id")
            XCTAssertNil(a.json["requestId"])
        }
        XCTAssertEqual(w.store.bodiesRun, 1, "only the keyring's start-up write reached the writer")
    }

    func testValidRequestIdIsEchoedInHeaderAndBody() {
        let w = World()
        let r = w.android()
        let a = w.resolve(r)
        a.assertMatch("none")
        XCTAssertEqual(a.header("X-Biq-Request-Id"), r.requestId)
        XCTAssertEqual(a.requestId, r.requestId)
    }

    func testMissingOrInvalidIdempotencyKeyIsInvalidHeaders() {
        let w = World()
        for value in [nil, "short", String(repeating: "a", count: 101), "has space1", "bad/slash1"] as [String?] {
            var r = w.ios()
            r.headerOverrides = [("idempotency-key", value)]
            w.resolve(r).assertError(400, "invalid_headers")
        }
        var ok = w.ios()
        ok.headerOverrides = [("idempotency-key", "a.b_c~d-e" + String(repeating: "z", count: 91))]
        XCTAssertEqual(w.resolve(ok).status, 200)
    }

    func testSdkHeaderMustBeExactlyIosOrAndroid() {
        let w = World()
        for value in [nil, "iOS", "ANDROID", "web", ""] as [String?] {
            var r = w.ios()
            r.headerOverrides = [("x-biq-sdk", value)]
            w.resolve(r).assertError(400, "invalid_headers")
        }
    }

    func testSdkVersionHeaderMustBe1To32Characters() {
        let w = World()
        for value in [nil, "", String(repeating: "1", count: 33)] as [String?] {
            var r = w.ios()
            r.headerOverrides = [("x-biq-sdk-version", value)]
            w.resolve(r).assertError(400, "invalid_headers")
        }
    }

    /// Issue 14: the message names the rule the value breaks (a tab is not a length problem).
    func testSdkVersionHeaderMessageNamesTheBrokenRule() {
        let w = World()
        let cases: [(String?, String)] = [
            (nil, "X-Biq-SDK-Version is required."),
            ("", "X-Biq-SDK-Version must not be empty."),
            ("1.0\t0", "X-Biq-SDK-Version must not contain a tab or other control character."),
            ("1.0\u{7F}", "X-Biq-SDK-Version must not contain a tab or other control character."),
            ("1.0.0-bêta", "X-Biq-SDK-Version must contain printable ASCII characters only."),
            (String(repeating: "1", count: 33), "X-Biq-SDK-Version must be at most 32 characters."),
        ]
        for (value, message) in cases {
            var r = w.ios()
            r.headerOverrides = [("x-biq-sdk-version", value)]
            let a = w.resolve(r)
            a.assertError(400, "invalid_headers")
            XCTAssertEqual(a.message, message, String(reflecting: value))
        }
        var twice = w.ios().input(now: w.now)
        twice.request.headers.add("x-biq-sdk-version", "1.0.0")
        XCTAssertEqual(w.resolve(twice).message, "X-Biq-SDK-Version must be sent once.")
    }

    func testSdkVersionRuleAcceptsPrintableASCIIUpTo32Characters() {
        for ok in ["1", "1.0.0", "1.0.0 (build 7)", String(repeating: "9", count: 32), "~!@#$%^&*()"] {
            XCTAssertNil(RequestHeaders.sdkVersionProblem(.value(ok)), ok)
        }
        // Tabs and spaces around the value are HTTP whitespace, trimmed before the check.
        let w = World()
        var padded = w.ios()
        padded.headerOverrides = [("x-biq-sdk-version", "\t" + padded.sdkVersion + " ")]
        XCTAssertEqual(w.resolve(padded).status, 200)
    }

    func testMissingOrInvalidRequestIdIsInvalidHeadersWithAGeneratedId() {
        let w = World()
        for value in [nil, "short", "req with spaces", String(repeating: "r", count: 101)] as [String?] {
            var r = w.ios()
            r.requestId = nil
            if let value { r.headerOverrides = [("x-biq-request-id", value)] }
            let a = w.resolve(r)
            a.assertError(400, "invalid_headers")
            let generated = a.header("X-Biq-Request-Id") ?? ""
            XCTAssertTrue(generated.hasPrefix("req_") && generated.count == 36, generated)
            XCTAssertEqual(a.requestId, generated)
        }
    }

    func testRepeatedHeaderIsInvalid() {
        let w = World()
        let r = w.ios()
        var input = r.input(now: w.now)
        input.request.headers.add("idempotency-key", r.idempotencyKey)
        w.resolve(input).assertError(400, "invalid_headers")
    }

    func testContentTypeMustBeJSONAndAllowsUtf8Charset() {
        let w = World()
        for value in [nil, "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin-1"]
            as [String?]
        {
            var r = w.ios()
            r.headerOverrides = [("content-type", value)]
            w.resolve(r).assertError(400, "invalid_request")
        }
        for value in ["application/json; charset=utf-8", "Application/JSON", "application/json;charset=\"UTF-8\""] {
            var r = w.ios()
            r.headerOverrides = [("content-type", value)]
            XCTAssertEqual(w.resolve(r).status, 200, value)
        }
    }

    func testHeadersAreCheckedBeforeTheKey() {
        let w = World()
        var r = w.ios()
        r.publishableKey = "nonsense"
        r.headerOverrides = [("x-biq-sdk", "web")]
        w.resolve(r).assertError(400, "invalid_headers")
    }

    func testSdkHeaderDifferentFromBodyPlatformIsHeaderMismatch() {
        let w = World()
        var r = w.ios()
        r.headerOverrides = [("x-biq-sdk", "android")]
        w.resolve(r).assertError(422, "header_mismatch")
    }

    func testSdkVersionHeaderDifferentFromBodyIsHeaderMismatch() {
        let w = World()
        var r = w.android()
        r.headerOverrides = [("x-biq-sdk-version", "1.0.1")]
        w.resolve(r).assertError(422, "header_mismatch")
    }
}
