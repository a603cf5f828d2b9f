import Core
import Model
import XCTest

@testable import Outbound
@testable import Store
@testable import Webhooks

#if canImport(Glibc)
import Glibc
#endif

/// The dispatcher through its seams (issue 34 item 5): passes (`deliverDue`) against a
/// receiver and a time of the test's own, on a real SQLite store.
final class WebhookDispatcherTests: XCTestCase {
    private var dir = ""
    private var store: SQLiteStore!
    private let clock = TestTime(start: 1_700_000_000_000)
    private let receiver = ScriptedReceiver()

    override func setUpWithError() throws {
        dir = String(cString: mkdtemp(strdup(NSTemporaryDirectory() + "wh-dispatcher-XXXXXX"))!)
        store = try SQLiteStore.open(path: dir + "/edge.sqlite3", readers: 1)
    }

    override func tearDown() {
        store.close()
        _ = try? FileManager.default.removeItem(atPath: dir)
    }

    private func dispatcher(node: String = "n", delays: [Int64], claimBatch: Int = 16) -> WebhookDispatcher {
        var settings = WebhookDeliverySettings()
        settings.node = node
        settings.schedule = WebhookRetrySchedule(delays: delays)
        settings.claimBatch = claimBatch
        let receiver = self.receiver
        return WebhookDispatcher(
            store: store, signal: store.webhookSignal, settings: settings,
            secrets: WebhookSecretKeeper(keyring: nil, sealing: false, path: "k"), senders: { receiver },
            clock: clock.webhookClock, warn: { _, _ in })
    }

    /// An endpoint subscribing to `link.created`, and `events` of it at the current time.
    @discardableResult
    private func endpoint(_ id: String = "biq_whk_a", events: Int = 1) throws -> [String] {
        let now = clock.now
        return try store.writeAndWait { tx in
            if try tx.webhookEndpoint(id: id) == nil {
                try tx.putWebhookEndpoint(
                    WebhookEndpoint(
                        id: id, url: "https://x.example/" + id, eventTypes: [.linkCreated],
                        secret: WebhookSecret.make(), createdAt: now, updatedAt: now))
            }
            var ids: [String] = []
            for _ in 0..<events {
                let event = WebhookEvent(type: .linkCreated, appId: nil, linkId: "l", at: now, data: [])
                try tx.enqueueWebhookEvent(event, endpointId: id)
                ids.append(event.id)
            }
            return ids
        }
    }

    private func delivery(_ message: String, of endpoint: String = "biq_whk_a") throws -> WebhookDelivery {
        try XCTUnwrap(store.reader(loop: 0).webhookDelivery(endpointId: endpoint, messageId: message))
    }

    func testAFailingDeliveryIsTriedAgainAfterEachDelayThenGivenUp() throws {
        let d = dispatcher(delays: [5, 300])
        let start = clock.now
        let message = try endpoint()[0]
        receiver.answer = { _ in HTTPSResponse(status: 500, headers: [], body: Array("no".utf8)) }

        XCTAssertEqual(try d.deliverDue(receiver), 1)
        XCTAssertEqual(try delivery(message).nextAttemptAt, start + 5_000)
        XCTAssertEqual(try delivery(message).state, .pending)

        clock.now = start + 4_999
        XCTAssertEqual(try d.deliverDue(receiver), 0, "not due before its delay")
        clock.now = start + 5_000
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        XCTAssertEqual(try delivery(message).nextAttemptAt, start + 305_000)

        clock.now = start + 305_000
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        let last = try delivery(message)
        XCTAssertEqual(last.state, .failed, "the schedule's end")
        XCTAssertNil(last.nextAttemptAt)
        XCTAssertEqual(last.attempts, 3)
        let attempts = try store.reader(loop: 0).webhookAttempts(endpointId: "biq_whk_a", messageId: message)
        XCTAssertEqual(attempts.map(\.at), [start, start + 5_000, start + 305_000])
        XCTAssertEqual(attempts.map(\.status), [500, 500, 500])
        XCTAssertEqual(attempts.map(\.answer), ["no", "no", "no"])
        // Each attempt signed at its own time, with the message's id.
        XCTAssertEqual(receiver.sent.map(\.url), Array(repeating: "https://x.example/biq_whk_a", count: 3))
        XCTAssertEqual(receiver.sent.map { $0.header("webhook-id") }, [message, message, message])
        XCTAssertEqual(
            receiver.sent.map { $0.header("webhook-timestamp") },
            [start, start + 5_000, start + 305_000].map { String($0 / 1_000) })
        clock.now = start + 10_000_000
        XCTAssertEqual(try d.deliverDue(receiver), 0, "a failed delivery is not tried again")
    }

    func testATransportFailureIsAFailedAttemptAndASuccessDelivers() throws {
        let d = dispatcher(delays: [5])
        let start = clock.now
        let message = try endpoint()[0]
        receiver.answer = { _ in throw NetworkError.connect("connection refused") }
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        XCTAssertEqual(try delivery(message).lastError, "connection refused")
        XCTAssertEqual(try delivery(message).nextAttemptAt, start + 5_000)

        clock.now = start + 5_000
        receiver.answer = { _ in HTTPSResponse(status: 204, headers: [], body: []) }
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        XCTAssertEqual(try delivery(message).state, .delivered)
        XCTAssertEqual(try delivery(message).deliveredAt, start + 5_000)
        XCTAssertEqual(d.statistics.snapshot.retried, 1)
        XCTAssertEqual(d.statistics.snapshot.delivered, 1)
    }

    func testRetryAfterIsHonouredOn429And503OnlyAndCappedAtADay() throws {
        let d = dispatcher(delays: [5])
        let start = clock.now
        let cases: [(endpoint: String, status: Int, retryAfter: String, next: Int64)] = [
            ("biq_whk_a", 429, "120", start + 120_000),
            ("biq_whk_b", 503, "120", start + 120_000),
            // Any other status: the schedule's delay, whatever the receiver asks.
            ("biq_whk_c", 500, "120", start + 5_000),
            // Sooner than the schedule: the schedule's delay.
            ("biq_whk_d", 429, "1", start + 5_000),
            // Longer than `longestRetryAfter`: a day.
            ("biq_whk_e", 503, "200000", start + WebhookRetrySchedule.longestRetryAfter),
            // An HTTP date, 10 minutes on (`start` is 2023-11-14 22:13:20 UTC).
            ("biq_whk_f", 429, "Tue, 14 Nov 2023 22:23:20 GMT", start + 600_000),
        ]
        var messages: [String: String] = [:]
        for c in cases { messages[c.endpoint] = try endpoint(c.endpoint)[0] }
        receiver.answer = { url in
            let c = cases.first { url.hasSuffix($0.endpoint) }!
            return HTTPSResponse(status: c.status, headers: [("Retry-After", c.retryAfter)], body: [])
        }
        XCTAssertEqual(try d.deliverDue(receiver), cases.count)
        for c in cases {
            let row = try delivery(messages[c.endpoint]!, of: c.endpoint)
            XCTAssertEqual(row.state, .pending, c.endpoint)
            XCTAssertEqual(row.nextAttemptAt, c.next, c.endpoint)
        }
    }

    func testALeaseThatExpiresMidAttemptIsClaimedAgainAndTheLateOutcomeIsNotWritten() throws {
        let slow = dispatcher(node: "slow", delays: [5])
        let other = dispatcher(node: "other", delays: [5])
        let lease = WebhookDeliverySettings().leaseMilliseconds
        let start = clock.now
        let message = try endpoint()[0]
        var otherClaimed = -1
        receiver.answer = { [clock, receiver] _ in
            guard receiver.sent.count == 1 else { return HTTPSResponse(status: 200, headers: [], body: []) }
            // The first receiver outlives the lease: the delivery is free to claim again.
            clock.now = start + lease - 1
            XCTAssertEqual(try other.deliverDue(receiver), 0, "leased until \(start + lease)")
            clock.now = start + lease
            otherClaimed = try other.deliverDue(receiver)
            return HTTPSResponse(status: 500, headers: [], body: [])
        }
        XCTAssertEqual(try slow.deliverDue(receiver), 1)
        XCTAssertEqual(otherClaimed, 1)
        let row = try delivery(message)
        XCTAssertEqual(row.state, .delivered, "the late 500 does not overwrite the second claim's outcome")
        XCTAssertEqual(row.attempts, 1)
        let attempts = try store.reader(loop: 0).webhookAttempts(endpointId: "biq_whk_a", messageId: message)
        XCTAssertEqual(attempts.map(\.status), [200])
        XCTAssertEqual(attempts.map(\.node), ["other"])
        XCTAssertEqual(slow.statistics.snapshot.lost, 1)
        XCTAssertEqual(other.statistics.snapshot.delivered, 1)
    }

    func testAnEndpointFailingForFiveDaysIsDisabledAndItsPendingDeliveriesFail() throws {
        let d = dispatcher(delays: [1], claimBatch: 1)
        let start = clock.now
        receiver.answer = { _ in HTTPSResponse(status: 500, headers: [], body: []) }
        try endpoint()
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        var e = try XCTUnwrap(store.reader(loop: 0).webhookEndpoint(id: "biq_whk_a"))
        XCTAssertEqual(e.failingSince, start)

        // Failing for a millisecond less than five days: still enabled.
        clock.now = start + WebhookRetrySchedule.disableAfter - 1
        try endpoint()
        while try d.deliverDue(receiver) > 0 {}
        e = try XCTUnwrap(store.reader(loop: 0).webhookEndpoint(id: "biq_whk_a"))
        XCTAssertTrue(e.enabled)
        XCTAssertEqual(e.failingSince, start)

        // Five days: the next failure disables it; the delivery behind it fails unsent.
        clock.now = start + WebhookRetrySchedule.disableAfter
        let messages = try endpoint(events: 2)
        let sentBefore = receiver.sent.count
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        e = try XCTUnwrap(store.reader(loop: 0).webhookEndpoint(id: "biq_whk_a"))
        XCTAssertFalse(e.enabled)
        XCTAssertEqual(e.disabledReason, WebhookAttemptOutcome.disabledReason)
        XCTAssertEqual(e.disabledAt, start + WebhookRetrySchedule.disableAfter)
        XCTAssertEqual(try messages.map { try delivery($0).state }, [.failed, .failed])
        XCTAssertEqual(try d.deliverDue(receiver), 0)
        XCTAssertEqual(receiver.sent.count, sentBefore + 1)
    }

    func testAnEndpointThatSucceedsInTimeIsNotDisabled() throws {
        let d = dispatcher(delays: [1])
        let start = clock.now
        receiver.answer = { _ in HTTPSResponse(status: 500, headers: [], body: []) }
        try endpoint()
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        clock.now = start + WebhookRetrySchedule.disableAfter - 1
        receiver.answer = { _ in HTTPSResponse(status: 200, headers: [], body: []) }
        try endpoint()
        while try d.deliverDue(receiver) > 0 {}
        receiver.answer = { _ in HTTPSResponse(status: 500, headers: [], body: []) }
        clock.now = start + WebhookRetrySchedule.disableAfter
        try endpoint()
        XCTAssertEqual(try d.deliverDue(receiver), 1)
        let e = try XCTUnwrap(store.reader(loop: 0).webhookEndpoint(id: "biq_whk_a"))
        XCTAssertTrue(e.enabled)
        XCTAssertEqual(e.failingSince, start + WebhookRetrySchedule.disableAfter, "a success began it again")
    }
}
