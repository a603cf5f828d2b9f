import Core
import Model
import Store
import XCTest

@testable import Resolver

/// The resolver's part of the webhooks (decision 0028): a live open puts one
/// `open.created` in the outbox, in its transaction, with the app's own answer.
final class WebhookOutboxTests: XCTestCase {
    func testALiveOpenWritesOneEventAndItsReplayNone() throws {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        let first = w.resolve(r)
        first.assertMatch("exact_install_referrer")
        var events = w.store.committed.webhookEvents
        XCTAssertEqual(events.map(\.type), [.openCreated])
        let event = try XCTUnwrap(events.first)
        let open = try XCTUnwrap(w.openEvents.first)
        XCTAssertEqual(event.appId, open.appId)
        XCTAssertEqual(event.linkId, open.linkId)
        let body = String(decoding: event.body, as: UTF8.self)
        XCTAssertTrue(body.hasPrefix(#"{"type":"open.created","timestamp":""#), body)
        XCTAssertTrue(body.contains(String(decoding: open.storedResponse.dropFirst(), as: UTF8.self)), body)

        let again = w.resolve(r)
        again.assertMatch("exact_install_referrer")
        events = w.store.committed.webhookEvents
        XCTAssertEqual(events.count, 1, "a replay is not a new open")
    }

    func testARefusedOpenWritesNothing() {
        let w = World()
        var r = w.android()
        r.handoffToken = "bqmh_" + String(repeating: "A", count: 43)
        _ = w.resolve(r)
        XCTAssertEqual(w.store.committed.webhookEvents.count, 0)
    }
}
