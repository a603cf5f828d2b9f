import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Management

/// `/api/v1/webhooks...` in process over a real SQLite store (decision 0028).
final class WebhookAPITests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!
    var api: ManagementAPI!
    var key = ""
    let now: Int64 = 1_800_000_000_000

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "webhook-api-tests")
        (store, key) = try InProcessAPI.store(in: directory)
        api = makeAPI(allowHTTP: false)
    }

    func makeAPI(allowHTTP: Bool) -> ManagementAPI {
        let now = self.now
        var environment = ManagementEnvironment(
            httpsActive: { _ in false }, now: { now }, publicURL: "https://edge.example.com", retentionDays: 90,
            log: .discarding)
        environment.webhookAllowHTTP = allowHTTP
        return ManagementAPI(store: store, environment: environment)
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    func send(_ method: HTTPMethod, _ target: String, _ body: JSONValue? = nil, bearer: String? = nil) -> (
        Int, JSONValue
    ) {
        let h = HTTPHeaders([("authorization", "Bearer " + (bearer ?? key))])
        let request = HTTPRequest(method: method, target: target, headers: h, body: body?.jsonBytes ?? [])
        guard let response = InProcessAPI.answer(api, store, request) else {
            XCTFail("no answer to \(method) \(target)")
            return (0, .null)
        }
        return (response.status, (try? JSONParser.parse(response.body)) ?? .null)
    }

    func create(_ url: String = "https://hooks.example.com/in", events: [String] = ["link.created"]) -> (Int, JSONValue)
    {
        send(.post, "/api/v1/webhooks", ["url": .string(url), "events": .array(events.map(JSONValue.string))])
    }

    func testTheSecretIsShownOnCreateAndRotateOnly() throws {
        let (status, body) = create()
        XCTAssertEqual(status, 201, "\(body)")
        let id = try XCTUnwrap(body["id"]?.stringValue)
        let secret = try XCTUnwrap(body["secret"]?.stringValue)
        XCTAssertEqual(WebhookSecret.key(secret)?.count, 32)
        XCTAssertEqual(body["secretHint"]?.stringValue, "whsec_…" + String(secret.suffix(4)))
        XCTAssertEqual(body["events"], ["link.created"])
        XCTAssertEqual(body["enabled"], true)

        let (_, got) = send(.get, "/api/v1/webhooks/" + id)
        XCTAssertNil(got["secret"])
        XCTAssertFalse("\(got)".contains(secret))
        let (_, list) = send(.get, "/api/v1/webhooks")
        XCTAssertEqual(list["data"]?.arrayValue?.count, 1)
        XCTAssertFalse("\(list)".contains(secret))

        let (rotated, answer) = send(.post, "/api/v1/webhooks/\(id)/secret/rotate")
        XCTAssertEqual(rotated, 200)
        let newSecret = try XCTUnwrap(answer["secret"]?.stringValue)
        XCTAssertNotEqual(newSecret, secret)
        XCTAssertEqual(answer["previousSecretExpiresAt"]?.stringValue, Timestamp.format(milliseconds: now + 86_400_000))
        let stored = try XCTUnwrap(store.reader(loop: 0).webhookEndpoint(id: id))
        XCTAssertEqual(stored.signingSecrets(at: now), [newSecret, secret])
        XCTAssertEqual(send(.post, "/api/v1/webhooks/\(id)/secret/rotate", ["overlapSeconds": 0]).0, 200)
        XCTAssertEqual(try store.reader(loop: 0).webhookEndpoint(id: id)?.signingSecrets(at: now).count, 1)
        XCTAssertEqual(send(.post, "/api/v1/webhooks/\(id)/secret/rotate", ["overlapSeconds": 604_801]).0, 422)
    }

    func testValidationAndLimits() {
        XCTAssertEqual(create("http://hooks.example.com/in").0, 422)
        api = makeAPI(allowHTTP: true)
        XCTAssertEqual(create("http://hooks.example.com/in").0, 201)
        XCTAssertEqual(create("ftp://hooks.example.com/in").0, 422)
        XCTAssertEqual(create(events: []).0, 422)
        XCTAssertEqual(create(events: ["webhook.test"]).0, 422)
        XCTAssertEqual(create(events: ["open.created", "nope"]).0, 422)
        let (status, body) = send(
            .post, "/api/v1/webhooks", ["url": "https://a.example/", "events": ["open.created"], "secret": "whsec_x"])
        XCTAssertEqual(status, 422)
        XCTAssertEqual(body["error"]?["details"]?["field"], "secret")
        XCTAssertEqual(
            send(.post, "/api/v1/webhooks", ["url": "https://a.example/", "events": ["open.created"], "appIds": ["x"]])
                .0,
            422)
        for i in 1..<WebhookInput.maxEndpoints { XCTAssertEqual(create("https://hooks.example.com/\(i)").0, 201) }
        XCTAssertEqual(create("https://hooks.example.com/more").0, 422, "at most 50 endpoints")
    }

    func testEventsAreQueuedAndTheirDeliveriesShown() throws {
        let (_, made) = create(events: ["link.created", "link.deleted"])
        let id = try XCTUnwrap(made["id"]?.stringValue)
        XCTAssertEqual(send(.post, "/api/v1/domains", ["hostname": "go.example.com"]).0, 201)
        let (linkStatus, link) = send(
            .post, "/api/v1/links", ["domain": "go.example.com", "key": "a", "url": "https://example.com/"])
        XCTAssertEqual(linkStatus, 201)
        XCTAssertEqual(send(.delete, "/api/v1/links/" + (link["id"]?.stringValue ?? "")).0, 200)
        let (test, pending) = send(.post, "/api/v1/webhooks/\(id)/test")
        XCTAssertEqual(test, 202)
        XCTAssertEqual(pending["type"], "webhook.test")
        XCTAssertEqual(pending["state"], "pending")

        let (_, page) = send(.get, "/api/v1/webhooks/\(id)/deliveries?limit=2")
        XCTAssertEqual(
            page["data"]?.arrayValue?.compactMap { $0["type"]?.stringValue }, ["webhook.test", "link.deleted"])
        let cursor = try XCTUnwrap(page["nextCursor"]?.stringValue)
        let (_, rest) = send(.get, "/api/v1/webhooks/\(id)/deliveries?cursor=" + cursor)
        XCTAssertEqual(rest["data"]?.arrayValue?.compactMap { $0["type"]?.stringValue }, ["link.created"])
        let created = try XCTUnwrap(rest["data"]?.arrayValue?.first?["id"]?.stringValue)
        let (_, detail) = send(.get, "/api/v1/webhooks/\(id)/deliveries/\(created)")
        XCTAssertEqual(detail["payload"]?["type"], "link.created")
        XCTAssertEqual(detail["payload"]?["data"]?["id"], link["id"])
        XCTAssertEqual(detail["attemptList"]?.arrayValue?.count, 0)
        XCTAssertEqual(send(.post, "/api/v1/webhooks/\(id)/deliveries/\(created)/redeliver").0, 202)
        XCTAssertEqual(send(.get, "/api/v1/webhooks/\(id)/deliveries/msg_01ARZ3NDEKTSV4RRFFQ69G5FAV").0, 404)
    }

    func testDisablingByHandAndEnablingAgain() throws {
        let (_, made) = create()
        let id = try XCTUnwrap(made["id"]?.stringValue)
        let (_, off) = send(.patch, "/api/v1/webhooks/" + id, ["enabled": false])
        XCTAssertEqual(off["enabled"], false)
        XCTAssertEqual(off["disabledReason"], "Disabled by an operator.")
        XCTAssertEqual(off["url"], "https://hooks.example.com/in")
        let (_, on) = send(.patch, "/api/v1/webhooks/" + id, ["enabled": true, "description": "orders"])
        XCTAssertEqual(on["disabledReason"], .null)
        XCTAssertEqual(on["description"], "orders")
        XCTAssertEqual(send(.delete, "/api/v1/webhooks/" + id).0, 200)
        XCTAssertEqual(send(.get, "/api/v1/webhooks/" + id).0, 404)
    }

    func testScopes() throws {
        let reader = KeyMaterial.newSecretKey()
        let record = SecretKeyRecord(
            id: "sk_r", name: "r", keyHash: KeyMaterial.hash(reader), hint: KeyMaterial.hint(reader), createdAt: 0,
            scopes: [.webhooksRead])
        try store.writeAndWait { tx in try tx.putSecretKey(record) }
        XCTAssertEqual(send(.get, "/api/v1/webhooks", bearer: reader).0, 200)
        let (status, body) = send(
            .post, "/api/v1/webhooks", ["url": "https://a.example/", "events": ["open.created"]], bearer: reader)
        XCTAssertEqual(status, 403)
        XCTAssertEqual(body["error"]?["details"]?["requiredScope"], "webhooks.write")
    }
}
