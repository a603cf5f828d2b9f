import XCTest

@testable import Model

/// Issue 33 items 4 and 8: the same URL, the test events' limit, who reads a payload.
final class WebhookURLIdentityTests: XCTestCase {
    func testSpellingsOfOneURLAreTheSame() {
        let same = [
            "https://hooks.example.com/in", "https://hooks.example.com:443/in", "https://hooks.example.com:0443/in",
            "https://hooks.example.com/in#frag", "https://hooks.example.com/a/../in", "https://hooks.example.com/./in",
            "https://hooks.example.com/%69n", "HTTPS://hooks.example.com/in",
        ]
        for url in same {
            XCTAssertEqual(WebhookURLIdentity.key(url), "https://hooks.example.com/in", url)
        }
        XCTAssertEqual(WebhookURLIdentity.key("https://h.example"), "https://h.example/")
        XCTAssertEqual(WebhookURLIdentity.key("https://h.example/"), "https://h.example/")
        XCTAssertEqual(WebhookURLIdentity.key("https://h.example?x=1"), "https://h.example/?x=1")
        XCTAssertEqual(WebhookURLIdentity.key("http://h.example:80/x"), "http://h.example/x")
        XCTAssertEqual(WebhookURLIdentity.key("https://h.example/a%2fb?q=%7e%2f"), "https://h.example/a%2Fb?q=~%2F")
        XCTAssertEqual(WebhookURLIdentity.key("https://[::1]:443/x"), "https://[::1]/x")
        XCTAssertEqual(WebhookURLIdentity.key("https://[::1]:8443/x"), "https://[::1]:8443/x")
    }

    func testDifferentURLsStayDifferent() {
        let distinct = [
            "https://hooks.example.com/in", "http://hooks.example.com/in", "https://hooks.example.com/in/",
            "https://hooks.example.com/In", "https://hooks.example.com:8443/in", "https://hooks.example.com/in?a=1",
            "https://hooks.example.com/in?a=2", "https://other.example.com/in", "https://hooks.example.com/in%2F",
        ]
        XCTAssertEqual(Set(distinct.map(WebhookURLIdentity.key)).count, distinct.count)
    }
}

final class WebhookTestLimitTests: XCTestCase {
    func testTheFifthTestOfAMinuteIsTheLast() {
        let now: Int64 = 1_000_000
        XCTAssertNil(WebhookTestLimit.retryAfterSeconds(times: [], now: now))
        let four = [now - 50_000, now - 40_000, now - 30_000, now - 1]
        XCTAssertNil(WebhookTestLimit.retryAfterSeconds(times: four, now: now))
        // Five in the window: the oldest leaves it in 10 s.
        XCTAssertEqual(WebhookTestLimit.retryAfterSeconds(times: four + [now], now: now), 10)
        // Seven (a fleet's race): the third oldest must leave.
        let seven = [now - 59_500, now - 50_000, now - 20_000, now - 3, now - 2, now - 1, now]
        XCTAssertEqual(WebhookTestLimit.retryAfterSeconds(times: seven, now: now), 40)
        // Older than the window: not counted; never less than 1 s.
        XCTAssertNil(WebhookTestLimit.retryAfterSeconds(times: four + [now - 60_000], now: now))
        XCTAssertEqual(WebhookTestLimit.retryAfterSeconds(times: four + [now - 59_999], now: now), 1)
    }
}

final class WebhookPayloadAccessTests: XCTestCase {
    func testAPayloadNeedsTheScopesOfWhatItHolds() {
        XCTAssertFalse(WebhookPayloadAccess.shows(.leadCreated, to: [.webhooksRead]))
        XCTAssertFalse(WebhookPayloadAccess.shows(.saleCreated, to: [.webhooksRead, .eventsRead]))
        XCTAssertTrue(WebhookPayloadAccess.shows(.saleCreated, to: [.webhooksRead, .eventsRead, .customersRead]))
        XCTAssertFalse(WebhookPayloadAccess.shows(.linkCreated, to: [.webhooksRead]))
        XCTAssertTrue(WebhookPayloadAccess.shows(.linkDeleted, to: [.webhooksRead, .linksRead]))
        XCTAssertFalse(WebhookPayloadAccess.shows(.openCreated, to: [.webhooksRead, .linksRead]))
        XCTAssertTrue(WebhookPayloadAccess.shows(.openCreated, to: [.webhooksRead, .linksRead, .analyticsRead]))
        XCTAssertTrue(WebhookPayloadAccess.shows(.test, to: [.webhooksRead]))
        // A key without scopes holds every one.
        for type in WebhookEventType.allCases { XCTAssertTrue(WebhookPayloadAccess.shows(type, to: nil)) }
    }
}
