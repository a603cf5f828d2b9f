import Core
import Model
import XCTest

@testable import Store
@testable import Webhooks

#if canImport(Glibc)
import Glibc
#endif

/// Issue 33 item 2: one outcome the store refuses costs no other its own, and is written
/// again without the receiver's text rather than lost (which sent it again every lease).
final class WebhookOutcomeWriterTests: XCTestCase {
    func testAnOutcomeTheStoreRefusesCostsOnlyItselfAndIsWrittenWithoutTheAnswer() throws {
        let dir = String(cString: mkdtemp(strdup(NSTemporaryDirectory() + "wh-outcomes-XXXXXX"))!)
        defer { _ = try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStore.open(path: dir + "/edge.sqlite3", readers: 1)
        defer { store.close() }
        // The store refuses an attempt whose answer is "poison" (as PostgreSQL refused a NUL).
        let raw = try SQLiteConnection.open(
            path: dir + "/edge.sqlite3", create: false, busyTimeoutMilliseconds: 5_000, cacheKiB: 64, queryOnly: false)
        try raw.exec(
            "CREATE TRIGGER poison BEFORE INSERT ON webhook_attempts WHEN NEW.answer = 'poison' "
                + "BEGIN SELECT RAISE(ABORT, 'poisoned'); END")
        raw.close()
        let event = WebhookEvent(type: .linkCreated, appId: nil, linkId: "l", at: 10, data: ["n": 1])
        let claimed = try store.writeAndWait { tx in
            for id in ["biq_whk_a", "biq_whk_b", "biq_whk_c"] {
                try tx.putWebhookEndpoint(
                    WebhookEndpoint(
                        id: id, url: "https://x.example/" + id, eventTypes: [.linkCreated],
                        secret: WebhookSecret.make(), createdAt: 1, updatedAt: 1))
            }
            try tx.enqueueWebhookEvent(event)
            return try tx.claimWebhookDeliveries(
                owner: "n:1", now: 20, leaseUntil: 1_000, limit: 10, perEndpoint: 10, excluding: [])
        }
        XCTAssertEqual(claimed.count, 3)
        let answers = ["biq_whk_a": "fine", "biq_whk_b": "poison", "biq_whk_c": "also fine"]
        let made = claimed.map { d in
            Made(
                attempt: WebhookAttempt(
                    endpointId: d.endpointId, messageId: d.messageId, number: 1, at: 30, durationMilliseconds: 1,
                    status: 200, error: nil, answer: answers[d.endpointId], node: "n"),
                claimedAttempts: 0, outcome: .delivered, at: 30)
        }
        let statistics = WebhookStatistics()
        let warned = Monitor([String]())
        WebhookOutcomeWriter(
            store: store, owner: "n:1", statistics: statistics,
            warn: { message, _ in warned.withLock { $0.append(message) } }
        ).record(made)

        let reader = store.reader(loop: 0)
        for (endpoint, answer) in answers {
            let d = try XCTUnwrap(reader.webhookDelivery(endpointId: endpoint, messageId: event.id))
            XCTAssertEqual(d.state, .delivered, endpoint)
            XCTAssertEqual(d.attempts, 1, endpoint)
            let attempts = try reader.webhookAttempts(endpointId: endpoint, messageId: event.id)
            XCTAssertEqual(attempts.map(\.status), [200], endpoint)
            if answer == "poison" {
                XCTAssertEqual(attempts.map(\.answer), [nil])
                XCTAssertEqual(attempts.map(\.error), [WebhookOutcomeWriter.bareError])
            } else {
                XCTAssertEqual(attempts.map(\.answer), [answer])
            }
        }
        XCTAssertEqual(statistics.snapshot.delivered, 3)
        XCTAssertEqual(statistics.snapshot.lost, 0)
        XCTAssertEqual(warned.withLock { $0 }, ["webhooks: cannot record an attempt"])
    }
}
