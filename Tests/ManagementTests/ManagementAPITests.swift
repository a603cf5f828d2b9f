import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Management

#if canImport(Glibc)
import Glibc
#endif

/// The workspace API in process, over a real SQLite store: routing, auth, writes through
/// the writer, idempotency, and `apply`'s import.
final class ManagementAPITests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!
    var api: ManagementAPI!
    var key = ""
    var clock: Int64 = 1_800_000_000_000

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "mgmt-tests")
        (store, key) = try InProcessAPI.store(in: directory)
        let now = clock
        api = ManagementAPI(
            store: store,
            environment: ManagementEnvironment(
                httpsActive: { $0 == "secure.example.com" }, now: { now }, publicURL: "https://edge.example.com",
                retentionDays: 90, log: .discarding))
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    /// One request, answered (waiting for the writer when it is a write).
    func send(_ method: HTTPMethod, _ target: String, _ body: JSONValue? = nil, headers: [(String, String)] = [])
        -> (Int, JSONValue, HTTPHeaders)
    {
        var h = HTTPHeaders([("authorization", "Bearer " + key)])
        for (n, v) in headers { h.set(n.lowercased(), v) }
        let request = HTTPRequest(method: method, target: target, headers: h, body: body?.jsonBytes ?? [])
        guard let response = InProcessAPI.answer(api, store, request) else {
            XCTFail("no answer to \(method) \(target)")
            return (0, .null, HTTPHeaders())
        }
        let json = (try? JSONParser.parse(response.body)) ?? .null
        return (response.status, json, response.headers)
    }

    func testRoutingAuthAndEnvelope() {
        let (status, body, headers) = send(.get, "/api/v1/domains", headers: [("authorization", "Bearer biqli_pk_x")])
        XCTAssertEqual(status, 401)
        XCTAssertEqual(body["error"]?["code"], "invalid_token")
        XCTAssertEqual(body["request_id"]?.stringValue, headers["x-biq-request-id"])
        XCTAssertEqual(headers["cache-control"], "no-store")
        XCTAssertEqual(send(.get, "/api/v1/nowhere").0, 404)
        let (s405, _, h405) = send(.put, "/api/v1/links")
        XCTAssertEqual(s405, 405)
        XCTAssertEqual(h405["allow"], "GET, POST, HEAD")
        XCTAssertEqual(send(.get, "/api/v1/openapi.json", headers: [("authorization", "")]).0, 200)
        XCTAssertEqual(send(.head, "/api/v1/domains").0, 200)
        XCTAssertEqual(
            send(.get, "/api/v1/domains", headers: [("x-biq-request-id", "req_mine_12345")]).2["x-biq-request-id"],
            "req_mine_12345")
    }

    func testCreateReadUpdateDeleteThroughTheWriter() {
        let (created, domain, _) = send(.post, "/api/v1/domains", ["hostname": "secure.example.com"])
        XCTAssertEqual(created, 201)
        XCTAssertEqual(domain["httpsActive"], true)
        XCTAssertEqual(domain["createdAt"], .string(Timestamp.format(milliseconds: clock)))
        XCTAssertEqual(
            send(.post, "/api/v1/domains", ["hostname": "secure.example.com"]).1["error"]?["code"], "domain_taken")
        let (_, app, _) = send(
            .post, "/api/v1/mobile-apps",
            ["name": "A", "domains": ["secure.example.com"], "android": ["packageName": "com.example.a"]])
        let appId = app["id"]?.stringValue ?? ""
        XCTAssertTrue(Identifier.isValid(appId, prefix: Identifier.mobileAppPrefix))
        XCTAssertEqual(app["publishableKey"]?.stringValue?.hasPrefix("biqli_mobile_pk_"), true)
        let (linkStatus, link, _) = send(
            .post, "/api/v1/links",
            [
                "domain": "secure.example.com", "key": "k", "url": "https://x.com/",
                "mobile": ["appId": .string(appId), "route": "/r"],
            ])
        XCTAssertEqual(linkStatus, 201)
        XCTAssertEqual(link["shortUrl"], "https://secure.example.com/k")
        XCTAssertEqual(
            send(.post, "/api/v1/links", ["domain": "secure.example.com", "key": "k", "url": "https://x.com/"]).1[
                "error"]?["code"], "alias_taken")
        let id = link["id"]?.stringValue ?? ""
        XCTAssertEqual(send(.patch, "/api/v1/links/\(id)", ["enabled": false]).1["enabled"], false)
        XCTAssertEqual(send(.delete, "/api/v1/mobile-apps/\(appId)").0, 200)
        XCTAssertEqual(send(.get, "/api/v1/links/\(id)").1["mobile"], .null)
        XCTAssertEqual(send(.delete, "/api/v1/domains/secure.example.com").0, 200)
        XCTAssertEqual(send(.get, "/api/v1/links/\(id)").0, 404)
    }

    func testIdempotentWritesReplayAndConflict() {
        let h = [("Idempotency-Key", "idem-key-0001")]
        let first = send(.post, "/api/v1/domains", ["hostname": "a.example.com"], headers: h)
        let again = send(.post, "/api/v1/domains", ["hostname": "a.example.com"], headers: h)
        XCTAssertEqual(first.0, 201)
        XCTAssertEqual(again.0, 201)
        XCTAssertEqual(first.1, again.1)
        XCTAssertEqual(again.2["idempotent-replayed"], "true")
        XCTAssertEqual(
            send(.post, "/api/v1/domains", ["hostname": "b.example.com"], headers: h).1["error"]?["code"],
            "idempotency_conflict")
        XCTAssertEqual(
            send(.post, "/api/v1/domains", ["hostname": "b.example.com"], headers: [("Idempotency-Key", "bad")]).0, 400)
    }

    func testARefusalWritesNothing() throws {
        XCTAssertEqual(send(.post, "/api/v1/domains", ["hostname": "r.example.com"]).0, 201)
        // The app refers to a missing domain after a valid one: nothing of it may stay.
        let (status, body, _) = send(
            .post, "/api/v1/mobile-apps",
            [
                "name": "R", "domains": ["r.example.com", "missing.example.com"],
                "android": ["packageName": "com.example.r"],
            ])
        XCTAssertEqual(status, 422)
        XCTAssertEqual(body["error"]?["details"]?["field"], "domains[1]")
        XCTAssertEqual(try store.reader(loop: 0).apps().count, 0)
        XCTAssertEqual(try store.reader(loop: 0).publishableKeys(app: "").count, 0)
    }

    func testRotationEndsOnlyOpenEndedKeys() throws {
        let (_, app, _) = send(
            .post, "/api/v1/mobile-apps",
            ["name": "K", "android": ["packageName": "com.example.k"], "keyOverlapSeconds": 10])
        let id = app["id"]?.stringValue ?? ""
        let first = send(.post, "/api/v1/mobile-apps/\(id)/keys/rotate")
        XCTAssertEqual(first.1["previousKeyExpiresAt"], .string(Timestamp.format(milliseconds: clock + 10_000)))
        let second = send(.post, "/api/v1/mobile-apps/\(id)/keys/rotate")
        XCTAssertEqual(second.1["previousKeyExpiresAt"], .string(Timestamp.format(milliseconds: clock + 10_000)))
        let keys = try store.reader(loop: 0).publishableKeys(app: id)
        XCTAssertEqual(keys.count, 3)
        XCTAssertEqual(keys.filter { $0.expiresAt == nil }.count, 1)
    }

    func testApplyIsIdempotentAndAllOrNothing() throws {
        let document: JSONValue = [
            "domains": [["hostname": "go.example.com", "verified": true]],
            "mobileApps": [
                ["name": "App", "domains": ["go.example.com"], "android": ["packageName": "com.example.app"]]
            ],
            "links": [
                [
                    "domain": "go.example.com", "key": "invite", "url": "https://x.com/",
                    "mobile": ["appName": "App", "route": "/i"],
                ]
            ],
        ]
        let first = try CatalogImport.run(document, store: store, now: 1, dryRun: false).get()
        XCTAssertEqual(first.domains.created + first.mobileApps.created + first.links.created, 3)
        XCTAssertEqual(first.newKeys.count, 1)
        let second = try CatalogImport.run(document, store: store, now: 2, dryRun: false).get()
        XCTAssertTrue(second.changes.isEmpty)
        XCTAssertEqual(second.links.unchanged, 1)
        var changed = document
        if case .object(var members) = changed, let i = members.firstIndex(where: { $0.0 == "links" }) {
            members[i].1 = [["domain": "go.example.com", "key": "invite", "url": "https://y.com/"]]
            changed = .object(members)
        }
        let dry = try CatalogImport.run(changed, store: store, now: 3, dryRun: true).get()
        XCTAssertEqual(dry.links.updated, 1)
        XCTAssertEqual(try store.reader(loop: 0).link(host: "go.example.com", key: "invite")?.url, "https://x.com/")
        let broken: JSONValue = [
            "domains": [["hostname": "new.example.com"]],
            "links": [["domain": "go.example.com", "key": "api", "url": "javascript:x"]],
        ]
        guard case .failure(.invalid(let problems)) = CatalogImport.run(broken, store: store, now: 4, dryRun: false)
        else { return XCTFail("broken file applied") }
        XCTAssertEqual(problems.map(\.field), ["links[0].key", "links[0].url"])
        XCTAssertNil(try store.reader(loop: 0).domain("new.example.com"))
    }
}
