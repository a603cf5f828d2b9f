import Core
import Model
import XCTest

@testable import Management

/// The pure rules of the workspace API: URLs, hostnames, keys, metadata, merges.
final class ManagementValidationTests: XCTestCase {
    func testSchemesOtherThanHTTPAreBlockedHoweverSpelled() {
        for text in [
            "javascript:alert(1)", "JavaScript:alert(1)", " \u{1}javascript:x", "java\tscript:x", "jav\nascript:x",
            "data:text/html,x", "file:///etc/passwd", "vbscript:x", "ftp://h/x", "intent://x", "blob:https://x",
        ] {
            guard case .failure(let refusal) = URLRule.normalized(text, kind: .web) else {
                return XCTFail("accepted \(text)")
            }
            XCTAssertTrue(refusal.blocked, text)
            XCTAssertNotNil(URLRule.blocked(text, field: "url"), text)
        }
    }

    func testMalformedWebURLsAreRefusedWithoutBlocking() {
        for text in [
            "//h.com/x", "/x", "h.com", "https://u:p@h.com/", "https://h .com/", "https://h.com/a b", "https://",
            "https://h.com:0/", "https://h.com/%zz", "https://h.com/\"", "",
        ] {
            guard case .failure(let refusal) = URLRule.normalized(text, kind: .web) else {
                return XCTFail("accepted \(text)")
            }
            XCTAssertFalse(refusal.blocked, text)
        }
    }

    func testWebURLsAreNormalisedAndHTTPSOnlyFieldsRefuseHTTP() {
        XCTAssertEqual(try URLRule.normalized("HTTP://WWW.Ex.COM/P?q=1", kind: .web).get(), "http://www.ex.com/P?q=1")
        XCTAssertEqual(try URLRule.normalized("https://ex.com/é", kind: .web).get(), "https://ex.com/%C3%A9")
        XCTAssertEqual(try URLRule.normalized("https://[::1]:8443/x", kind: .https).get(), "https://[::1]:8443/x")
        guard case .failure(let refusal) = URLRule.normalized("http://ex.com/i.png", kind: .https) else {
            return XCTFail("http accepted where https is required")
        }
        XCTAssertFalse(refusal.blocked)
    }

    func testSchemeDetectionStopsAtTheFirstNonSchemeCharacter() {
        XCTAssertEqual(URLRule.scheme(of: "https://x"), "https")
        XCTAssertEqual(URLRule.scheme(of: "a+b-c.d:x"), "a+b-c.d")
        XCTAssertNil(URLRule.scheme(of: "/a:b"))
        XCTAssertNil(URLRule.scheme(of: "1abc:x"))
        XCTAssertNil(URLRule.scheme(of: "no colon"))
        XCTAssertNil(URLRule.scheme(of: ":x"))
    }

    func testHostnames() {
        for good in ["a.b", "go.example.com", "xn--bcher-kva.example", "1.example.test", "a-b.example"] {
            XCTAssertTrue(HostnameRule.isValid(good), good)
        }
        for bad in [
            "Go.example.com", "localhost", "10.0.0.1", "-a.example", "a-.example", "a..b", "a.b.", ".a.b", "a_b.c",
            "bücher.de", String(repeating: "a", count: 64) + ".com", "",
        ] {
            XCTAssertFalse(HostnameRule.isValid(bad), bad)
        }
    }

    func testLinkKeysAreOneSegmentAndNotReserved() {
        var problems = FieldProblems()
        for good in ["a", "Invite_2024-x", String(repeating: "k", count: 64), "apis", "m2"] {
            LinkKeyRule.check(good, field: "key", problems: &problems)
        }
        XCTAssertTrue(problems.isEmpty, "\(problems.list)")
        for bad in ["", "a/b", "a.b", "a b", String(repeating: "k", count: 65), "api", "API", "M", "healthz", "_biqli"]
        {
            var p = FieldProblems()
            LinkKeyRule.check(bad, field: "key", problems: &p)
            XCTAssertEqual(p.list.map(\.field), ["key"], bad)
        }
        let generated = LinkKeyRule.generate()
        XCTAssertEqual(generated.count, LinkKeyRule.generatedLength)
        XCTAssertTrue(LinkKey.isPossible(Substring(generated)))
    }

    func testSensitiveKeysMatchLongTermsAnywhereAndShortOnesAsWords() {
        for key in [
            "password", "userPassword", "api_key", "Api-Key", "x-auth", "creditCard", "user_email", "e-mail",
            "PINCode", "user_pin", "pin", "DOB", "ssn_last4", "cvv", "phoneNumber", "sessionId",
        ] {
            XCTAssertNotNil(SensitiveKeys.match(key), key)
        }
        for key in ["shipping", "mapping", "spinner", "campaign", "tier", "dobby", "classname", "pinned", "utm_source"]
        {
            XCTAssertNil(SensitiveKeys.match(key), key)
        }
        XCTAssertEqual(SensitiveKeys.splitWords("userPIN_code2x"), ["user", "pin", "code", "2", "x"])
        XCTAssertEqual(SensitiveKeys.splitWords("PINCode"), ["pin", "code"])
    }

    func testMetadataLimits() {
        func problems(_ value: JSONValue) -> [String] {
            var p = FieldProblems()
            MetadataRule.check(value, field: "m", problems: &p)
            return p.list.map(\.field)
        }
        XCTAssertEqual(problems(["a": ["b": ["c": 1]]]), [])
        XCTAssertEqual(problems(["a": ["b": ["c": ["d": 1]]]]), ["m"])
        XCTAssertEqual(problems(.array([])), ["m"])
        XCTAssertEqual(problems(.object((0..<21).map { ("k\($0)", .int(1)) })), ["m"])
        XCTAssertEqual(problems(.object((0..<20).map { ("k\($0)", .int(1)) })), [])
        XCTAssertEqual(problems(["s": .string(String(repeating: "x", count: 1_001))]), ["m.s"])
        XCTAssertEqual(problems(["l": [.string(String(repeating: "x", count: 1_001))]]), ["m.l[0]"])
        XCTAssertEqual(problems(["u": ["token": 1]]), ["m.u.token"])
        let big = JSONValue.object((0..<5).map { ("k\($0)", .string(String(repeating: "x", count: 900))) })
        XCTAssertEqual(problems(big), ["m"])
    }

    func testMergePatchReplacesTopLevelAndMergesNestedObjectsOneLevel() {
        let base: JSONValue = ["name": "a", "ios": ["teamId": "T", "appStoreId": "1"], "domains": ["x", "y"]]
        let merged = MergePatch.apply(
            [("ios", ["appStoreId": "2"]), ("domains", ["z"]), ("extra", 1)], to: base, nested: ["ios"])
        XCTAssertEqual(merged, ["name": "a", "ios": ["teamId": "T", "appStoreId": "2"], "domains": ["z"], "extra": 1])
        XCTAssertEqual(MergePatch.apply([("ios", .null)], to: base, nested: ["ios"])["ios"], .null)
        // Not a nested field: replaced whole.
        XCTAssertEqual(
            MergePatch.apply([("ios", ["appStoreId": "2"])], to: base, nested: [])["ios"], ["appStoreId": "2"])
    }

    func testTextRule() {
        XCTAssertNil(TextRule.check("ok", maxLength: 2))
        XCTAssertNotNil(TextRule.check("", maxLength: 2))
        XCTAssertNotNil(TextRule.check("abc", maxLength: 2))
        XCTAssertEqual(TextRule.check("ééé", maxLength: 3), nil)
        XCTAssertNotNil(TextRule.check("a\nb", maxLength: 9))
        XCTAssertNil(TextRule.check("a\nb", maxLength: 9, singleLine: false))
        XCTAssertNotNil(TextRule.check("a\u{0}b", maxLength: 9, singleLine: false))
    }

    func testDomainInputNamesEveryBrokenField() {
        XCTAssertThrowsError(
            try DomainInput.decode(["hostname": "Bad", "rootUrl": "javascript:x", "zz": 1], existing: nil, now: 0)
        ) { error in
            guard case .invalid(let problems) = error as? ManagementError else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.map(\.field), ["hostname", "rootUrl", "zz"])
            XCTAssertEqual(problems.map(\.blocked), [false, true, false])
            XCTAssertEqual(ManagementError.invalid(problems).code, "validation_error")
            XCTAssertEqual(ManagementError.invalid([problems[1]]).code, "url_blocked")
        }
    }

    func testMobileAppInputNormalisesFingerprintsAndKeepsDefaults() throws {
        let app = try MobileAppInput.decode(
            [
                "name": "A",
                "android": [
                    "packageName": "com.example.a",
                    "sha256CertFingerprints": [
                        "146de983c5730650d8eeb9952f34fc6416a08342e61dbea88a0496b23fcf44e5",
                        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
                    ],
                ],
            ], id: "biq_mapp_X", existing: nil, now: 5)
        XCTAssertEqual(
            app.android?.sha256CertFingerprints,
            ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"])
        XCTAssertEqual(app.handoffLifetimeSeconds, 86_400)
        XCTAssertEqual(app.keyOverlapSeconds, 7 * 86_400)
        XCTAssertEqual(app.createdAt, 5)
        // The writable form reads back to the same app.
        let again = try MobileAppInput.decode(MobileAppInput.writable(app), id: app.id, existing: app, now: 5)
        XCTAssertEqual(again, app)
    }

    func testLinkWritableFormRoundTrips() throws {
        let link = try LinkInput.decode(
            [
                "domain": "go.example.com", "key": "k", "url": "https://x.com/",
                "mobile": ["appId": "biq_mapp_A", "route": "/r", "metadata": ["a": 1], "dynamicKeys": ["ref"]],
                "preview": ["title": "T"],
            ], id: "biq_lnk_A", existing: nil, now: 1)
        XCTAssertEqual(try LinkInput.decode(LinkInput.writable(link), id: link.id, existing: link, now: 1), link)
    }

    /// A link stored under looser rules: a blocked scheme, a route without its slash,
    /// metadata naming a sensitive key, a preview image over plain HTTP.
    private var looseLink: Link {
        Link(
            id: "biq_lnk_L", domain: "go.example.com", key: "k", url: "javascript:alert(1)", enabled: true,
            mobile: MobilePayload(
                appId: "biq_mapp_A", route: "no-slash", referralCode: nil, metadata: ["password": "x"],
                dynamicKeys: ["Bad-Key"], deepView: true),
            preview: LinkPreview(title: "T", description: nil, imageUrl: "http://img.example.com/i.png"),
            createdAt: 1, updatedAt: 1)
    }

    private func patched(_ patch: [(String, JSONValue)]) throws -> Link {
        let link = looseLink
        let merged = MergePatch.apply(patch, to: LinkInput.writable(link), nested: LinkInput.nested)
        return try LinkInput.decode(merged, id: link.id, existing: link, now: 2, keepUnchanged: true)
    }

    func testAnUpdateValidatesOnlyWhatItChanges() throws {
        var disabled = looseLink
        disabled.enabled = false
        disabled.updatedAt = 2
        XCTAssertEqual(try patched([("enabled", false)]), disabled)
        let titled = try patched([("preview", ["title": "Spring"]), ("mobile", ["referralCode": "BOB"])])
        XCTAssertEqual(titled.preview?.title, "Spring")
        XCTAssertEqual(titled.preview?.imageUrl, "http://img.example.com/i.png", "kept as stored")
        XCTAssertEqual(titled.mobile?.route, "no-slash", "kept as stored")
        XCTAssertEqual(titled.mobile?.referralCode, "BOB")
        XCTAssertEqual(titled.url, "javascript:alert(1)")
        // Whatever a patch changes meets today's rules, at any depth.
        for (patch, field) in [
            ([("url", JSONValue.string("javascript:alert(2)"))], "url"),
            ([("mobile", ["route": "still-no-slash"])], "mobile.route"),
            ([("mobile", ["metadata": ["token": "y"]])], "mobile.metadata.token"),
            ([("preview", ["imageUrl": "http://img.example.com/other.png"])], "preview.imageUrl"),
        ] as [([(String, JSONValue)], String)] {
            XCTAssertThrowsError(try patched(patch), field) { error in
                guard case .invalid(let problems) = error as? ManagementError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(problems.first?.field, field)
            }
        }
        // Without keepUnchanged (a create, `apply`) everything is checked, as before.
        XCTAssertThrowsError(
            try LinkInput.decode(LinkInput.writable(looseLink), id: "biq_lnk_L", existing: looseLink, now: 2))
    }
}
