import Core
import XCTest

@testable import Resolver

final class BodyValidationTests: XCTestCase {
    private func raw(_ w: World, _ body: String) -> Answer {
        w.resolve(w.ios().input(now: w.now, body: Array(body.utf8)))
    }

    func testBodyThatIsNotJSONOrNotAnObjectIsInvalidRequest() {
        let w = World()
        for body in ["", "not json", "{", "[]", "\"text\"", "42", "null", "{\"a\":1,}", "{} {}"] {
            raw(w, body).assertError(400, "invalid_request")
        }
    }

    func testBodyOver16KBIsInvalidRequest() {
        let w = World()
        var r = w.ios()
        r.extraMembers = [("attestation", "{\"pad\":\"" + String(repeating: "x", count: 16_384) + "\"}")]
        w.resolve(r).assertError(400, "invalid_request")
    }

    func testBodyOfExactly16384BytesIsAccepted() {
        let w = World()
        var r = w.ios()
        let base = r.body.count + #","attestation":{"p":""}"#.utf8.count
        r.extraMembers = [("attestation", "{\"p\":\"" + String(repeating: "x", count: 16_384 - base) + "\"}")]
        XCTAssertEqual(r.body.count, 16_384)
        XCTAssertEqual(w.resolve(r).status, 200)
    }

    func testBodyDeeperThan32LevelsIsInvalidRequest() {
        let w = World()
        var ok = w.ios()
        ok.extraMembers = [("attestation", String(repeating: "[", count: 31) + String(repeating: "]", count: 31))]
        XCTAssertEqual(w.resolve(ok).status, 200, "32 levels including the body itself")
        var deep = w.ios()
        deep.extraMembers = [("attestation", String(repeating: "[", count: 32) + String(repeating: "]", count: 32))]
        w.resolve(deep).assertError(400, "invalid_request")
    }

    func testDuplicateKeysAreInvalidRequest() {
        let w = World()
        var r = w.ios()
        r.extraMembers = [("appId", SDKRequest.quote(w.otherAppId))]
        w.resolve(r).assertError(400, "invalid_request")
    }

    func testUnknownFieldIsValidationError() {
        let w = World()
        var r = w.ios()
        r.extraMembers = [("advertisingId", "\"abc\"")]
        let a = w.resolve(r)
        a.assertError(422, "validation_error")
        XCTAssertTrue(a.message?.contains("advertisingId") ?? false)
        XCTAssertNotNil(a.requestId, "resolver errors use requestId")
        XCTAssertNil(a.json["request_id"])
    }

    func testEachMissingRequiredFieldIsValidationError() {
        let w = World()
        for field in [
            "eventId", "appId", "appInstanceId", "platform", "firstOpen", "probabilisticAllowed", "sdkVersion",
        ] {
            var r = w.android()
            r.omitted = [field]
            let a = w.resolve(r)
            a.assertError(422, "validation_error")
            XCTAssertTrue(a.message?.contains(field) ?? false, a.bodyText)
        }
    }

    func testWrongTypesAreValidationErrors() {
        let w = World()
        let cases: [(String, String)] = [
            ("eventId", "12345678"), ("appId", "null"), ("platform", "\"web\""), ("firstOpen", "\"true\""),
            ("probabilisticAllowed", "1"), ("handoffToken", "42"), ("deepLink", "{}"), ("domain", "[]"),
            ("appVersion", "2"), ("osVersion", "false"), ("sdkVersion", "null"), ("occurredAt", "1700000000"),
            ("attestation", "\"token\""), ("attestation", "7"), ("attestation", "true"),
        ]
        for (field, value) in cases {
            var r = w.ios()
            r.omitted = [field]
            r.extraMembers = [(field, value)]
            w.resolve(r).assertError(422, "validation_error")
        }
    }

    func testLengthsAndPatternsFollowTheSchema() {
        let w = World()
        let cases: [(String, String)] = [
            ("eventId", "short"), ("eventId", String(repeating: "e", count: 101)), ("eventId", "open 12345"),
            ("appId", String(repeating: "a", count: 41)),
            ("appInstanceId", "install_1234567"), ("appInstanceId", String(repeating: "i", count: 129)),
            ("appInstanceId", "install/123456789"),
            ("handoffToken", String(repeating: "h", count: 129)),
            ("deepLink", "https://go.example.test/" + String(repeating: "d", count: 2_030)),
            ("domain", String(repeating: "d", count: 256)),
            ("appVersion", String(repeating: "1", count: 33)), ("osVersion", String(repeating: "1", count: 33)),
            ("sdkVersion", ""), ("sdkVersion", String(repeating: "1", count: 33)),
            ("occurredAt", "yesterday"), ("occurredAt", "2026-02-30T00:00:00Z"), ("occurredAt", "2026-09-27 12:30:00"),
        ]
        for (field, value) in cases {
            var r = w.ios()
            r.omitted = [field]
            r.extraMembers = [(field, SDKRequest.quote(value))]
            if field == "sdkVersion" { r.headerOverrides = [("x-biq-sdk-version", "1.0.0")] }
            w.resolve(r).assertError(422, "validation_error")
        }
    }

    func testBoundaryLengthsAreAccepted() {
        let w = World()
        var r = w.ios()
        r.appInstanceId = String(repeating: "i", count: 16)
        r.appVersion = String(repeating: "1", count: 32)
        r.osVersion = String(repeating: "1", count: 32)
        r.domain = String(repeating: "d", count: 255)
        XCTAssertEqual(w.resolve(r).status, 200)
    }

    /// `maxLength` counts code points, not bytes: 32 two-byte characters (64 bytes)
    /// fit a 32-character field, 33 do not.
    func testLengthLimitsCountCodePoints() {
        let w = World()
        var ok = w.ios()
        ok.appVersion = String(repeating: "é", count: 32)
        ok.osVersion = String(repeating: "😀", count: 32)
        XCTAssertEqual(w.resolve(ok).status, 200)
        var long = w.ios()
        long.appVersion = String(repeating: "é", count: 33)
        w.resolve(long).assertError(422, "validation_error")
        XCTAssertTrue(SafeText.isNonEmpty(String(repeating: "é", count: 32), within: 32))
        XCTAssertFalse(SafeText.isNonEmpty("", within: 32))
        XCTAssertFalse(SafeText.isWithin(String(repeating: "😀", count: 33), max: 32))
    }

    func testOptionalFieldsMayBeNullOrAbsentAndAttestationIsIgnored() {
        let w = World()
        var android = w.android()
        android.extraMembers = [("attestation", "null")]
        XCTAssertEqual(w.resolve(android).status, 200)
        var ios = w.ios()
        ios.appVersion = nil
        ios.osVersion = nil
        ios.occurredAt = nil
        ios.extraMembers = [("attestation", "{\"future\":[1,2,{\"x\":null}]}")]
        XCTAssertEqual(w.resolve(ios).status, 200)
        var arrayForm = w.ios()
        arrayForm.extraMembers = [("attestation", "[]")]
        XCTAssertEqual(w.resolve(arrayForm).status, 200)
    }

    func testOccurredAtAcceptsBothSDKFormsAndOffsets() {
        let w = World()
        for value in ["2026-09-27T12:30:00Z", "2026-09-27T12:30:00.123Z", "2026-09-27T14:30:00+02:00"] {
            var r = w.ios()
            r.occurredAt = value
            XCTAssertEqual(w.resolve(r).status, 200, value)
        }
    }

    func testBodyIsCheckedBeforeTheApp() {
        let w = World()
        w.updateApp { $0.enabled = false }
        var r = w.ios()
        r.extraMembers = [("unknown", "1")]
        w.resolve(r).assertError(422, "validation_error")
    }

    func testValidatorNormalisesBothSDKForms() throws {
        let ios = try OpenRequestValidator.validate(
            OpenRequestValidator.parse(
                Array(
                    #"{"sdkVersion":"1.0.0","appId":"biq_mapp_X","eventId":"open_ABCDEF12","appInstanceId":"install_0123456789","platform":"ios","firstOpen":true,"probabilisticAllowed":false,"occurredAt":"2026-09-27T12:30:00Z","domain":"Go.Example.Test"}"#
                        .utf8)))
        let android = try OpenRequestValidator.validate(
            OpenRequestValidator.parse(
                Array(
                    #"{"eventId":"open_ABCDEF12","appId":"biq_mapp_X","appInstanceId":"install_0123456789","platform":"ios","firstOpen":true,"probabilisticAllowed":false,"handoffToken":null,"deepLink":null,"domain":"go.example.test","appVersion":null,"osVersion":"","sdkVersion":"1.0.0","occurredAt":"2026-09-27T12:30:00.000Z"}"#
                        .utf8)))
        XCTAssertEqual(ios, android)
        XCTAssertEqual(ios.occurredAt, Timestamp.parse("2026-09-27T12:30:00Z"))
    }
}
