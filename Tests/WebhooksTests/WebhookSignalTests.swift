import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// Issue 34 item 5: the wake-up is each store's, not the process's: a write to one store's
/// outbox wakes only the delivery threads of that store.
final class WebhookSignalTests: XCTestCase {
    func testAWriteToTheOutboxRaisesOnlyItsOwnStoresSignal() throws {
        let dir = String(cString: mkdtemp(strdup(NSTemporaryDirectory() + "wh-signal-XXXXXX"))!)
        defer { _ = try? FileManager.default.removeItem(atPath: dir) }
        let one = try SQLiteStore.open(path: dir + "/one.sqlite3", readers: 1)
        defer { one.close() }
        let other = try SQLiteStore.open(path: dir + "/other.sqlite3", readers: 1)
        defer { other.close() }
        XCTAssertFalse(one.webhookSignal === other.webhookSignal)
        let (oneBefore, otherBefore) = (one.webhookSignal.current, other.webhookSignal.current)
        try one.writeAndWait { tx in
            try tx.putWebhookEndpoint(
                WebhookEndpoint(
                    id: "biq_whk_a", url: "https://x.example/a", eventTypes: [.linkCreated],
                    secret: WebhookSecret.make(), createdAt: 1, updatedAt: 1))
            try tx.enqueueWebhookEvent(WebhookEvent(type: .linkCreated, appId: nil, linkId: "l", at: 2, data: []))
        }
        XCTAssertGreaterThan(one.webhookSignal.current, oneBefore)
        XCTAssertEqual(other.webhookSignal.current, otherBefore)
        // A sleeper of the other store is not woken: it waits out its time.
        XCTAssertEqual(other.webhookSignal.wait(after: otherBefore, milliseconds: 1), otherBefore)
    }
}
