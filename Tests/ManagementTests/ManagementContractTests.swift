import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Management

/// The OpenAPI document's rules are the server's (issue 14, item 7), and a request with two
/// `Authorization` fields is refused (item 10b). The patterns are matched with Swift's own
/// regex engine against the validators they describe.
final class ManagementContractTests: XCTestCase {
    /// `pattern` as JSON Schema applies it: anywhere in the text unless anchored, over
    /// Unicode scalars (the document counts characters the way `TextRule` does).
    func matches(_ pattern: String, _ text: String) throws -> Bool {
        try Regex(pattern).matchingSemantics(.unicodeScalar).firstMatch(in: text) != nil
    }

    /// What `ManagementAPI.prepare` answers on the loop (auth, parsing) for `fields`.
    func prepared(_ method: HTTPMethod, _ target: String, _ fields: [(String, String)], body: String = "") throws
        -> (Int, JSONValue, HTTPHeaders)?
    {
        let directory = ScratchDirectory(prefix: "mgmt-contract")
        defer { directory.remove() }
        let store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
        defer { store.close() }
        let key = KeyMaterial.newSecretKey()
        try store.writeAndWait { tx in
            try tx.putSecretKey(
                SecretKeyRecord(
                    id: "sk_1", name: "t", keyHash: KeyMaterial.hash(key), hint: KeyMaterial.hint(key), createdAt: 0))
        }
        let api = ManagementAPI(
            store: store,
            environment: ManagementEnvironment(
                httpsActive: { _ in false }, now: { 0 }, publicURL: "https://edge.example.com", retentionDays: 90,
                log: .discarding))
        let headers = HTTPHeaders(fields.map { ($0.0, $0.1.hasSuffix("$KEY") ? String($0.1.dropLast(4)) + key : $0.1) })
        let request = HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        guard let response = InProcessAPI.answer(api, store, request, performingWrites: false) else {
            return nil
        }
        return (response.status, (try? JSONParser.parse(response.body)) ?? .null, response.headers)
    }

    func testTwoAuthorizationFieldsAreRefusedWhateverTheyHold() throws {
        let good = ("authorization", "Bearer $KEY")
        XCTAssertEqual(try prepared(.get, "/api/v1/domains", [good])?.0, 200)
        for second in ["Bearer $KEY", "Bearer biqli_sk_" + String(repeating: "Z", count: 43), "Basic eDp5"] {
            let answer = try prepared(.get, "/api/v1/domains", [good, ("authorization", second)])
            XCTAssertEqual(answer?.0, 401, second)
            XCTAssertEqual(answer?.1["error"]?["code"], "invalid_token")
        }
        // A write is refused on the loop, before it reaches the writer.
        let write = try prepared(.post, "/api/v1/domains", [good, good], body: #"{"hostname":"a.example.com"}"#)
        XCTAssertEqual(write?.0, 401)
    }

    func testACreateOrUpdateWithoutABodyIs400() throws {
        let auth = ("authorization", "Bearer $KEY")
        for (method, target) in [
            (HTTPMethod.patch, "/api/v1/domains/a.example.com"), (.patch, "/api/v1/links/biq_lnk_x"),
            (.post, "/api/v1/domains"), (.post, "/api/v1/mobile-apps"), (.post, "/api/v1/links"),
        ] {
            let answer = try prepared(method, target, [auth], body: " \n")
            XCTAssertEqual(answer?.0, 400, target)
            XCTAssertEqual(answer?.1["error"]?["details"]?["field"], "body", target)
        }
        // Rotation takes no body; a PATCH of {} goes on to the writer.
        XCTAssertNil(try prepared(.post, "/api/v1/mobile-apps/biq_mapp_x/keys/rotate", [auth]))
        XCTAssertNil(try prepared(.patch, "/api/v1/domains/a.example.com", [auth], body: "{}"))
    }

    func testARefusedRequestIdIsAnsweredWithAGeneratedOne() throws {
        let answer = try prepared(.get, "/api/v1/openapi.json", [("x-biq-request-id", "bad id")])
        XCTAssertEqual(answer?.0, 400)
        XCTAssertEqual(answer?.1["error"]?["details"]?["field"], "X-Biq-Request-Id")
        let id = try XCTUnwrap(answer?.2["x-biq-request-id"])
        XCTAssertTrue(id.hasPrefix("req_") && id != "bad id")
        XCTAssertEqual(answer?.1["request_id"]?.stringValue, id)
    }

    func testARequestIdMustKeepTheRuleAndComeOnce() {
        XCTAssertNoThrow(try ManagementAPI.checkRequestId([]))
        XCTAssertNoThrow(try ManagementAPI.checkRequestId(["req_mine.1~2-3"]))
        for refused in [["short"], ["has spaces"], [String(repeating: "x", count: 101)], ["a1b2c3d4", "a1b2c3d4"]] {
            XCTAssertThrowsError(try ManagementAPI.checkRequestId(refused), "\(refused)") { error in
                XCTAssertEqual((error as? ManagementError)?.status, 400)
                XCTAssertEqual((error as? ManagementError)?.details?["field"], "X-Biq-Request-Id")
            }
        }
        // The answer to a refused id carries one of its own.
        XCTAssertTrue(ManagementAPI.requestId(nil).hasPrefix("req_"))
        XCTAssertEqual(ManagementAPI.requestId(nil).utf8.count, 36)
    }

    func testAnIdempotencyKeyMustKeepTheRuleAndComeOnce() throws {
        XCTAssertNil(try ManagementAPI.idempotencyKey([]))
        XCTAssertEqual(try ManagementAPI.idempotencyKey(["idem-0001"]), "idem-0001")
        XCTAssertThrowsError(try ManagementAPI.idempotencyKey(["idem-0001", "idem-0001"]))
        XCTAssertThrowsError(try ManagementAPI.idempotencyKey(["bad"]))
    }

    func testTheDemoIdsAreULIDsTheDocumentAccepts() throws {
        let linkPattern = try XCTUnwrap(OpenAPIDocument.idPattern(Identifier.linkPrefix).stringValue)
        let appPattern = try XCTUnwrap(OpenAPIDocument.idPattern(Identifier.mobileAppPrefix).stringValue)
        XCTAssertEqual(DemoData.linkIds.count, 3)
        for id in DemoData.linkIds.values {
            XCTAssertTrue(Identifier.isValid(id, prefix: Identifier.linkPrefix), id)
            XCTAssertTrue(try matches(linkPattern, id), id)
        }
        XCTAssertTrue(Identifier.isValid(DemoData.appId, prefix: Identifier.mobileAppPrefix))
        XCTAssertTrue(try matches(appPattern, DemoData.appId))
        // The ids the demo had before: an L is not Crockford base 32.
        XCTAssertFalse(try matches(linkPattern, "biq_lnk_01JDEM0L1NK000000000000001"))
        // The pattern is ULID.isValid.
        for ulid in [
            "01JDEM0HREF000000000000001", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            "01jdem0href000000000000001", "01JDEM0HREF00000000000001", "01JDEM0HREF0000000000000011",
        ] {
            XCTAssertEqual(
                try matches(linkPattern, Identifier.linkPrefix + ulid),
                Identifier.isValid(Identifier.linkPrefix + ulid, prefix: Identifier.linkPrefix), ulid)
        }
    }

    func testTheHostnameSchemaIsHostnameRule() throws {
        let schema = OpenAPIDocument.hostname()
        let pattern = try XCTUnwrap(schema["pattern"]?.stringValue)
        let notPattern = try XCTUnwrap(schema["not"]?["pattern"]?.stringValue)
        let names = [
            "go.example.com", "a.b", "123.example.com", "xn--bcher-kva.example", "1.2.3.4", "go.example.123",
            "Go.example.com", "localhost", "-a.example.com", "a-.example.com", "go.example.com.", "a..b", "a_b.com",
            String(repeating: "a", count: 63) + ".com", String(repeating: "a", count: 64) + ".com",
            (0..<4).map { _ in String(repeating: "a", count: 62) }.joined(separator: ".") + ".ab",
            (0..<4).map { _ in String(repeating: "a", count: 62) }.joined(separator: ".") + ".abcd",
        ]
        for name in names {
            let documented =
                try matches(pattern, name) && !(try matches(notPattern, name)) && name.unicodeScalars.count <= 253
            XCTAssertEqual(documented, HostnameRule.isValid(name), name)
        }
    }

    func testTheURLPatternsAreURLRule() throws {
        let urls = [
            "https://www.example.com/", "http://x.example.com/a?b=1#c", "HTTPS://WWW.EXAMPLE.COM/",
            "https://192.0.2.1:8443/",
            "https://[2001:db8::1]/", "https://[::ffff:192.0.2.1]/", "https://[be47]/", "https://[1:2]/",
            "https://example.com:00080/", "https://example.com:0/", "https://example.com:65536/",
            "https://example.com/{x}|^",
            "https://example.com/caf\u{E9}", "https://example.com/%41", "https://example.com/%zz",
            "https://example.com/a b",
            "https://user@example.com/", "https://exa_mple.com/", " https://example.com/", "ftp://example.com/",
            "javascript:alert(1)", "https://example.com/\"", "https://example.com\\x", "https://", "//example.com/",
        ]
        for httpsOnly in [false, true] {
            let pattern = OpenAPIDocument.urlPattern(httpsOnly: httpsOnly)
            for url in urls {
                let served = URLRule.normalized(url, kind: httpsOnly ? .https : .web)
                let accepted = (try? served.get()) != nil
                XCTAssertEqual(try matches(pattern, url), accepted, "\(url) (https only: \(httpsOnly))")
            }
        }
    }

    func testTheTextPatternsAreTextRule() throws {
        for text in ["plain", "caf\u{E9}", "tab\there", "line\nbreak", "cr\rhere", "nul\u{0}", "del\u{7F}", "c1\u{85}"]
        {
            XCTAssertEqual(
                try matches(OpenAPIDocument.singleLinePattern, text), TextRule.check(text, maxLength: 100) == nil, text)
            XCTAssertEqual(
                try matches(OpenAPIDocument.multiLinePattern, text),
                TextRule.check(text, maxLength: 100, singleLine: false) == nil, text)
        }
    }

    func testTheReservedKeyPatternIsLinkKeyRule() throws {
        for key in [
            "api", "API", "Api", "m", "M", "_biqli", "healthz", "metrics", "apple-app-site-association", "invite",
            "apis", "mm", "xapi",
        ] {
            XCTAssertEqual(try matches(OpenAPIDocument.reservedKeyPattern, key), LinkKeyRule.isReserved(key), key)
        }
    }
}
