import Core
import Dispatch
import HTTPMessages
import Model
import Store
import XCTest

@testable import Management

/// A refused write (an operation's `ManagementError`) reaches its own answer typed,
/// while the other writes of its group-commit batch commit; store errors map to
/// their codes by kind.
final class ManagementRefusalTests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!
    var api: ManagementAPI!
    var key = ""
    let failures = BufferLogSink()

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "mgmt-refusal")
        store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
        key = KeyMaterial.newSecretKey()
        let record = SecretKeyRecord(
            id: "sk_1", name: "t", keyHash: KeyMaterial.hash(key), hint: KeyMaterial.hint(key), createdAt: 0)
        try store.writeAndWait { tx in
            try tx.putSecretKey(record)
            try tx.putDomain(Domain(hostname: "taken.example.com", createdAt: 0, updatedAt: 0))
        }
        let failures = self.failures
        api = ManagementAPI(
            store: store,
            environment: ManagementEnvironment(
                httpsActive: { _ in false }, now: { 1_800_000_000_000 }, publicURL: "https://edge.example.com",
                retentionDays: 90, log: Logger(level: .info, sink: failures)))
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    func pendingWrite(_ target: String, _ body: JSONValue) -> ManagementAPI.PendingWrite? {
        let request = HTTPRequest(
            method: .post, target: target, headers: HTTPHeaders([("authorization", "Bearer " + key)]),
            body: body.jsonBytes)
        // The steps the edge's route runs once the router took the path.
        guard let operation = api.operations.first(where: { $0.method == .post && $0.pattern == target }) else {
            return nil
        }
        var requestId = ManagementAPI.requestId(request.headers)
        guard
            case .key(let key) = api.authorize(operation, request, reader: store.reader(loop: 0), requestId: &requestId),
            case .write(let write) = api.prepare(
                operation, request, parameters: [], key: key, requestId: requestId, reader: store.reader(loop: 0))
        else { return nil }
        return write
    }

    func testARefusedWriteAnswersItsOwnErrorWhileItsBatchMatesCommit() throws {
        let writes = [
            pendingWrite("/api/v1/domains", ["hostname": "taken.example.com"]),
            pendingWrite("/api/v1/domains", ["hostname": "fresh.example.com"]),
            pendingWrite("/api/v1/links", ["domain": "taken.example.com", "key": "k", "url": "javascript:x"]),
        ].compactMap { $0 }
        XCTAssertEqual(writes.count, 3)
        // Hold the writer so that the three requests share the next batch.
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        store.write({ _ in
            entered.signal()
            gate.wait()
        }) { _ in }
        entered.wait()
        let before = store.statistics.batches
        let answers = Answers()
        let done = DispatchGroup()
        for (i, write) in writes.enumerated() {
            done.enter()
            api.perform(write) { response in
                answers.set(i, response)
                done.leave()
            }
        }
        gate.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(store.statistics.batches - before, 1, "the three writes shared one batch")
        XCTAssertEqual(answers.status(0), 409)
        XCTAssertEqual(answers.code(0), "domain_taken")
        XCTAssertEqual(answers.status(1), 201)
        XCTAssertEqual(answers.status(2), 422)
        XCTAssertEqual(answers.code(2), "url_blocked")
        XCTAssertNotNil(try store.reader(loop: 0).domain("fresh.example.com"))
        XCTAssertEqual(try store.reader(loop: 0).links(domain: nil, after: nil, limit: 10).count, 0)
        XCTAssertEqual(failures.messages, [], "a refusal is the client's error, not a logged failure")
    }

    func testStoreErrorsMapToTheirCodesByKind() {
        XCTAssertEqual(
            api.map(StoreError.conflict(.domain), log: api.environment.log), .invalid("hostname", "is already a domain")
        )
        XCTAssertEqual(
            api.map(StoreError.conflict(.linkKey), log: api.environment.log),
            .invalid("key", "is already used on this domain"))
        XCTAssertEqual(
            api.map(StoreError.missingReference(.domain), log: api.environment.log),
            .invalid("domain", "names no domain; create the domain first"))
        XCTAssertEqual(
            api.map(StoreError.missingReference(.app), log: api.environment.log),
            .invalid("mobile.appId", "names no Mobile App"))
        XCTAssertEqual(failures.messages, [])
        XCTAssertEqual(api.map(StoreError.conflict(.idempotencyRecord), log: api.environment.log), .internalError)
        XCTAssertEqual(api.map(StoreError.missingReference(.unnamed), log: api.environment.log), .internalError)
        XCTAssertEqual(failures.messages.count, 2, "the others are logged and answered 500")
    }

    func testAFailureIsLoggedWithTheRequestsIdAndNoDetailReachesTheClient() throws {
        let answer = api.errorResponse(StoreError.missingReference(.unnamed), requestId: "req-caller-1")
        XCTAssertEqual(answer.status, 500)
        let line = try XCTUnwrap(failures.lines.last ?? nil)
        XCTAssertEqual(line["msg"], .string("management request failed"))
        XCTAssertEqual(line["requestId"], .string("req-caller-1"))
        XCTAssertFalse(String(decoding: answer.body, as: UTF8.self).contains("missingReference"))
    }
}

/// Answers handed over from the writer thread.
final class Answers: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var responses: [Int: HTTPResponse] = [:]

    func set(_ index: Int, _ response: HTTPResponse) {
        lock.wait()
        responses[index] = response
        lock.signal()
    }

    func status(_ index: Int) -> Int? {
        lock.wait()
        defer { lock.signal() }
        return responses[index]?.status
    }

    func code(_ index: Int) -> String? {
        lock.wait()
        defer { lock.signal() }
        guard let body = responses[index]?.body, let json = try? JSONParser.parse(body) else { return nil }
        return json["error"]?["code"]?.stringValue
    }
}

extension BufferLogSink {
    /// The `msg` of each line.
    var messages: [String] { lines.compactMap { $0?["msg"]?.stringValue } }
}
