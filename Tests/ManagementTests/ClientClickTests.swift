import Core
import HTTPMessages
import Model
import Store
import Synchronization
import XCTest

@testable import Management

/// Client-side click tracking's pure rules (decision 0027): the CORS preflight, the body
/// of track/click, browser keys' shape, the settings' body; and `ClientClickAPI` over a
/// real SQLite store, in the order of its checks.
final class ClientClickTests: XCTestCase {
    // MARK: preflight

    func testAPreflightOfAPostWithTheAllowedHeaders() {
        for headers in [
            [], [""], ["authorization"], ["content-type"], ["authorization,content-type"],
            ["Authorization, Content-Type"], ["content-type , authorization,"],
        ] {
            XCTAssertNil(CORSPreflight.problem(requestMethod: ["POST"], requestHeaders: headers), "\(headers)")
        }
    }

    func testEveryOtherPreflightIsNamed() {
        XCTAssertEqual(
            CORSPreflight.problem(requestMethod: [], requestHeaders: []), "Access-Control-Request-Method is missing")
        for method in ["GET", "post", "PUT", "OPTIONS", ""] {
            XCTAssertNotNil(CORSPreflight.problem(requestMethod: [method], requestHeaders: []), method)
        }
        XCTAssertNotNil(CORSPreflight.problem(requestMethod: ["POST", "POST"], requestHeaders: []))
        XCTAssertNotNil(CORSPreflight.problem(requestMethod: ["POST"], requestHeaders: ["authorization", "x"]))
        for headers in ["x-biq-request-id", "authorization,cookie", "content-type,x-custom", "authorizations"] {
            XCTAssertNotNil(CORSPreflight.problem(requestMethod: ["POST"], requestHeaders: [headers]), headers)
        }
    }

    // MARK: the body

    func decode(_ json: String) -> Result<ClientClickRequest, ManagementError> {
        do {
            return .success(try ClientClickRequest.decode(try JSONParser.parse(Array(json.utf8))))
        } catch let error as ManagementError {
            return .failure(error)
        } catch {
            XCTFail("\(error)")
            return .failure(.internalError)
        }
    }

    func fields(_ json: String) -> Set<String> {
        guard case .failure(.invalid(let problems)) = decode(json) else { return [] }
        return Set(problems.map(\.field))
    }

    func testAValidBody() throws {
        let request = try decode(
            #"{"domain":"go.example.com","key":"BOB","url":"https://shop.example.com/p?via=BOB&ref=x#top"}"#
        ).get()
        XCTAssertEqual(
            request,
            ClientClickRequest(
                domain: "go.example.com", key: "BOB", url: "https://shop.example.com/p?via=BOB&ref=x#top"))
        XCTAssertEqual(request.landingQuery, "via=BOB&ref=x")
        let bare = try decode(#"{"domain":"go.example.com","key":"a_-1","url":null}"#).get()
        XCTAssertNil(bare.url)
        XCTAssertEqual(bare.landingQuery, "")
        XCTAssertEqual(
            try decode(#"{"domain":"go.example.com","key":"k","url":"http://x.example/"}"#).get().landingQuery, "")
    }

    func testQueryValuesAloneStandForTheLandingPage() throws {
        // analytics-v3.js sends the query values the page forwards, not its address (issue 33 item 9).
        let request = try decode(#"{"domain":"go.example.com","key":"BOB","query":"ref=alice&utm_source=news"}"#).get()
        XCTAssertEqual(request.landingQuery, "ref=alice&utm_source=news")
        XCTAssertNil(request.url)
        XCTAssertEqual(try decode(#"{"domain":"go.example.com","key":"k","query":null}"#).get().landingQuery, "")
        for bad in [
            #""query":"a=1","url":"https://x.example/?a=1""#, #""query":"a=1#top""#, #""query":"?a=1""#,
            #""query":"""#, #""query":1"#, #""query":"\#(String(repeating: "a", count: 2049))""#,
        ] {
            XCTAssertEqual(fields(#"{"domain":"go.example.com","key":"k",\#(bad)}"#), ["query"], bad)
        }
    }

    func testEveryBrokenRuleIsNamed() {
        XCTAssertEqual(fields(#"{}"#), ["domain", "key"])
        XCTAssertEqual(fields(#"{"domain":"Go.Example.com","key":"k"}"#), ["domain"])
        XCTAssertEqual(fields(#"{"domain":"go.example.com","key":"a b"}"#), ["key"])
        XCTAssertEqual(fields(#"{"domain":"go.example.com","key":""}"#), ["key"])
        XCTAssertEqual(fields(#"{"domain":"go.example.com","key":"\#(String(repeating: "k", count: 65))"}"#), ["key"])
        XCTAssertEqual(fields(#"{"domain":"go.example.com","key":"k","url":"javascript:alert(1)"}"#), ["url"])
        XCTAssertEqual(fields(#"{"domain":"go.example.com","key":"k","url":"/relative"}"#), ["url"])
        XCTAssertEqual(
            fields(#"{"domain":"go.example.com","key":"k","url":"https://x/\#(String(repeating: "a", count: 2048))"}"#),
            ["url"])
        XCTAssertEqual(fields(#"{"domain":"go.example.com","key":"k","referrer":"x"}"#), ["referrer"])
        XCTAssertEqual(fields(#"{"domain":1,"key":true}"#), ["domain", "key"])
        XCTAssertEqual(fields(#"[]"#), ["body"])  // not an object
    }

    // MARK: keys

    func testBrowserKeysHaveTheirOwnShape() {
        let key = KeyMaterial.newBrowserKey()
        XCTAssertTrue(key.hasPrefix("biqli_pk_") && key.utf8.count == 9 + 43, key)
        XCTAssertTrue(BrowserKeys.isWellFormed(key))
        XCTAssertFalse(ManagementAuth.isWellFormed(key), "a browser key is no secret key")
        XCTAssertFalse(BrowserKeys.isWellFormed(KeyMaterial.newSecretKey()))
        XCTAssertFalse(BrowserKeys.isWellFormed(KeyMaterial.newPublishableKey()))
        XCTAssertFalse(BrowserKeys.isWellFormed(String(key.dropLast())))
        XCTAssertFalse(BrowserKeys.isWellFormed(key + "A"))
        XCTAssertFalse(BrowserKeys.isWellFormed("biqli_pk_" + String(repeating: "+", count: 43)))
        XCTAssertNotEqual(KeyMaterial.newBrowserKey(), key)
    }

    // MARK: settings

    func apply(_ json: String, to settings: ClientClickSettings = .initial) throws -> ClientClickSettings {
        var s = settings
        try ClientClickSettingsInput.apply(try JSONParser.parse(Array(json.utf8)), to: &s)
        return s
    }

    func testSettingsAreMergedAndValidated() throws {
        let on = try apply(#"{"enabled":true,"hostnames":["shop.example.com","*.example.org"]}"#)
        XCTAssertEqual(on, ClientClickSettings(enabled: true, hostnames: ["shop.example.com", "*.example.org"]))
        XCTAssertEqual(try apply(#"{"enabled":false}"#, to: on).hostnames, on.hostnames)
        XCTAssertEqual(try apply(#"{"hostnames":[]}"#, to: on), ClientClickSettings(enabled: true, hostnames: []))
        XCTAssertEqual(try apply("{}", to: on), on)
        for bad in [
            #"{"enabled":null}"#, #"{"enabled":"true"}"#, #"{"hostnames":"a.example.com"}"#, #"{"hostnames":[1]}"#,
            #"{"hostnames":["A.example.com"]}"#, #"{"x":1}"#,
        ] {
            XCTAssertThrowsError(try apply(bad, to: on), bad)
        }
    }

    // MARK: the API over a store

    var directory: ScratchDirectory!
    var store: SQLiteStore!

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "client-clicks")
        store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    func request(_ method: HTTPMethod, _ headers: [(String, String)], body: String = "") -> HTTPRequest {
        var h = HTTPHeaders()
        for (n, v) in headers { h.add(n, v) }
        return HTTPRequest(method: method, target: ClientClickAPI.path, headers: h, body: Array(body.utf8))
    }

    func code(_ prepared: ClientClickAPI.Prepared) -> String? {
        guard case .answer(let response) = prepared else { return nil }
        guard let json = try? JSONParser.parse(response.body) else { return "\(response.status)" }
        return json["error"]?["code"]?.stringValue
    }

    func testOnlyCallsFromAnAllowedOriginSpendTheKeysQuota() throws {
        let charged = Mutex<[String]>([])
        let api = ClientClickAPI(
            limitAddress: nil,
            limitKey: { id in
                charged.withLock { $0.append(id) }
                return nil
            }, log: .discarding)
        let reader = store.reader(loop: 0)
        let key = try BrowserKeys.create(name: "shop", store: store, now: 1)
        try store.writeAndWait { tx in
            try tx.putClientClickSettings(
                ClientClickSettings(enabled: true, hostnames: ["shop.example.com"], updatedAt: 2))
        }
        let auth = ("Authorization", "Bearer " + key)
        let body = #"{"domain":"go.example.com","key":"bob"}"#
        for origin in [nil, "https://evil.example", "null", "https://shop.example.com.evil.example"] {
            let headers = [auth] + (origin.map { [("Origin", $0)] } ?? [])
            let answer = code(api.prepare(request(.post, headers, body: body), reader: reader, clientAddress: "a"))
            XCTAssertEqual(
                answer, origin == nil ? "origin_required" : "origin_not_allowed", "\(String(describing: origin))")
        }
        try store.writeAndWait { tx in try tx.putClientClickSettings(ClientClickSettings(enabled: false, updatedAt: 3))
        }
        _ = api.prepare(
            request(.post, [auth, ("Origin", "https://shop.example.com")], body: body), reader: reader,
            clientAddress: "a")
        XCTAssertEqual(charged.withLock { $0 }, [], "refused before the key's bucket")
        try store.writeAndWait { tx in
            try tx.putClientClickSettings(
                ClientClickSettings(enabled: true, hostnames: ["shop.example.com"], updatedAt: 4))
        }
        _ = api.prepare(
            request(.post, [auth, ("Origin", "https://shop.example.com")], body: body), reader: reader,
            clientAddress: "a")
        XCTAssertEqual(charged.withLock { $0.count }, 1)
    }

    func testTheChecksComeInTheirOrder() throws {
        let limited = ClientClickAPI(limitAddress: { _ in 7 }, limitKey: nil, log: .discarding)
        let api = ClientClickAPI(limitAddress: nil, limitKey: nil, log: .discarding)
        let keyLimited = ClientClickAPI(limitAddress: nil, limitKey: { _ in 3 }, log: .discarding)
        let reader = store.reader(loop: 0)
        let key = try BrowserKeys.create(name: "shop", store: store, now: 1)
        let body = #"{"domain":"go.example.com","key":"bob"}"#
        let auth = ("Authorization", "Bearer " + key)
        let origin = ("Origin", "https://shop.example.com")

        // The address's limit before anything.
        if case .answer(let r) = limited.prepare(request(.post, []), reader: reader, clientAddress: "1.2.3.4") {
            XCTAssertEqual(r.status, 429)
            XCTAssertEqual(r.headers["retry-after"], "7")
        } else {
            XCTFail("no 429")
        }
        XCTAssertEqual(
            code(api.prepare(request(.post, [origin], body: body), reader: reader, clientAddress: "a")), "invalid_token"
        )
        XCTAssertEqual(
            code(keyLimited.prepare(request(.post, [auth], body: body), reader: reader, clientAddress: "a")),
            "origin_required")
        XCTAssertEqual(
            code(api.prepare(request(.post, [auth], body: body), reader: reader, clientAddress: "a")), "origin_required"
        )
        XCTAssertEqual(
            code(api.prepare(request(.post, [auth, origin], body: body), reader: reader, clientAddress: "a")),
            "client_click_tracking_disabled")
        try store.writeAndWait { tx in try tx.putClientClickSettings(ClientClickSettings(enabled: true, updatedAt: 2)) }
        XCTAssertEqual(
            code(api.prepare(request(.post, [auth, origin], body: body), reader: reader, clientAddress: "a")),
            "hostname_not_configured")
        try store.writeAndWait { tx in
            try tx.putClientClickSettings(
                ClientClickSettings(enabled: true, hostnames: ["*.example.com"], updatedAt: 3))
        }
        XCTAssertEqual(
            code(
                api.prepare(
                    request(.post, [auth, ("Origin", "https://example.com")], body: body), reader: reader,
                    clientAddress: "a")),
            "origin_not_allowed")
        // The key's limit once the origin is one the workspace allows (issue 33 item 7).
        XCTAssertEqual(
            code(
                keyLimited.prepare(
                    request(.post, [auth, ("Origin", "https://example.com")], body: body), reader: reader,
                    clientAddress: "a")),
            "origin_not_allowed")
        XCTAssertEqual(
            code(keyLimited.prepare(request(.post, [auth, origin], body: "{}"), reader: reader, clientAddress: "a")),
            "rate_limit_exceeded")
        XCTAssertEqual(
            code(api.prepare(request(.post, [auth, origin], body: "{}"), reader: reader, clientAddress: "a")),
            "validation_error")
        XCTAssertEqual(
            code(api.prepare(request(.post, [auth, origin], body: body), reader: reader, clientAddress: "a")),
            "resource_not_found")
        XCTAssertEqual(
            code(
                api.prepare(
                    request(.options, [origin, ("Access-Control-Request-Method", "GET")]), reader: reader,
                    clientAddress: "a")),
            "invalid_preflight")
        guard
            case .answer(let ok) = api.prepare(
                request(.options, [origin, ("Access-Control-Request-Method", "POST")]), reader: reader,
                clientAddress: "a")
        else { return XCTFail("no answer") }
        XCTAssertEqual(ok.status, 204)
        XCTAssertEqual(ok.headers["access-control-allow-origin"], "https://shop.example.com")
        XCTAssertEqual(
            code(api.prepare(request(.get, [origin]), reader: reader, clientAddress: "a")), "method_not_allowed")
    }
}
