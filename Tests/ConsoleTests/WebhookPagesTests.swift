import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Console

/// The console's webhook pages (decision 0028): endpoints and their state, an endpoint's
/// deliveries and attempts with the receiver's answer escaped, a test event; no secret.
final class WebhookPagesTests: XCTestCase {
    var h: ConsoleHarness!
    override func setUpWithError() throws { h = try ConsoleHarness() }
    override func tearDown() { h?.close() }

    func testEndpointsDeliveriesAndATestEvent() throws {
        let secret = WebhookSecret.make()
        let off = WebhookEndpoint(
            id: "biq_whk_01ARZ3NDEKTSV4RRFFQ69G5FA1", url: "https://b.example/in", eventTypes: [.leadCreated],
            enabled: false, disabledReason: WebhookAttemptOutcome.disabledReason, disabledAt: 5, secret: secret,
            createdAt: 1, updatedAt: 1)
        let on = WebhookEndpoint(
            id: "biq_whk_01ARZ3NDEKTSV4RRFFQ69G5FA0", url: "https://a.example/in", eventTypes: [.openCreated],
            secret: secret, createdAt: 1, updatedAt: 1)
        let event = WebhookEvent(type: .openCreated, appId: nil, linkId: nil, at: 2, data: [:])
        try h.store.writeAndWait { tx in
            try tx.putWebhookEndpoint(on)
            try tx.putWebhookEndpoint(off)
            try tx.enqueueWebhookEvent(event)
            let claimed = try tx.claimWebhookDeliveries(
                owner: "n", now: 3, leaseUntil: 99, limit: 1, perEndpoint: 1, excluding: [])
            XCTAssertEqual(claimed.count, 1)
            _ = try tx.finishWebhookAttempt(
                WebhookAttempt(
                    endpointId: on.id, messageId: event.id, number: 1, at: 3, durationMilliseconds: 7, status: 500,
                    error: nil, answer: "<script>alert(1)</script>", node: "n"),
                owner: "n", claimedAttempts: 0, outcome: .retry(at: 10), now: 3)
        }
        h.signIn()
        let list = h.text(h.send(.get, "/console/webhooks"))
        XCTAssertTrue(list.contains("https://a.example/in"))
        XCTAssertTrue(list.contains(WebhookAttemptOutcome.disabledReason))
        XCTAssertFalse(list.contains(secret))

        let page = "/console/webhooks/\(on.id)"
        let text = h.text(h.send(.get, page))
        XCTAssertTrue(text.contains(event.id))
        XCTAssertTrue(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the answer escaped")
        XCTAssertFalse(text.contains("<script>alert(1)"))
        XCTAssertFalse(text.contains(secret))
        XCTAssertTrue(text.contains(WebhookSecret.hint(secret)))

        let sent = h.send(.post, page + "/test", form: [("csrf", h.csrf(of: page))])
        XCTAssertEqual(sent.status, 200)
        XCTAssertTrue(h.text(sent).contains("id=\"webhook-test-sent\""))
        XCTAssertEqual(
            try h.store.reader(loop: 0).webhookDeliveries(endpointId: on.id, before: nil, limit: 10).map(\.type),
            [.test, .openCreated])
        XCTAssertEqual(h.send(.get, "/console/webhooks/biq_whk_nothing").status, 404)
    }
}
