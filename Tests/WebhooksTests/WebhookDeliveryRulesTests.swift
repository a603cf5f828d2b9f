import Core
import Model
import Store
import XCTest

@testable import Outbound
@testable import Webhooks

final class AddressRulesTests: XCTestCase {
    func v4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }

    func v6(_ groups: [UInt16]) -> [UInt8] { groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    func testPublicAddressesPass() {
        for a in ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "192.169.0.1", "223.255.255.1"] {
            XCTAssertNil(AddressRules.nonPublicReason(v4(a)), a)
        }
        XCTAssertNil(AddressRules.nonPublicReason(v6([0x2606, 0x4700, 0, 0, 0, 0, 0x6810, 0x84e5])))
        XCTAssertNil(AddressRules.nonPublicReason(v6([0x2a00, 0x1450, 0x4001, 0x80b, 0, 0, 0, 0x200e])))
    }

    func testEveryNonPublicRangeIsRefused() {
        for a in [
            "0.0.0.0", "10.1.2.3", "127.0.0.1", "127.255.0.9", "100.64.0.1", "100.127.255.255", "169.254.169.254",
            "172.16.0.1", "172.31.255.255", "192.168.1.1", "192.0.0.8", "192.0.2.1", "198.18.0.1", "198.19.1.1",
            "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.1.1.1", "240.0.0.1", "255.255.255.255", "192.88.99.1",
        ] {
            XCTAssertNotNil(AddressRules.nonPublicReason(v4(a)), a)
        }
        let refused: [[UInt16]] = [
            [0, 0, 0, 0, 0, 0, 0, 0],  // ::
            [0, 0, 0, 0, 0, 0, 0, 1],  // ::1
            [0, 0, 0, 0, 0, 0xFFFF, 0x7F00, 0x0001],  // ::ffff:127.0.0.1
            [0, 0, 0, 0, 0, 0xFFFF, 0x0A00, 0x0001],  // ::ffff:10.0.0.1
            [0x64, 0xFF9B, 0, 0, 0, 0, 0xC0A8, 0x0101],  // 64:ff9b::192.168.1.1
            [0x2002, 0x7F00, 0x0001, 0, 0, 0, 0, 1],  // 6to4 of 127.0.0.1
            [0xFC00, 0, 0, 0, 0, 0, 0, 1], [0xFD12, 0x3456, 0, 0, 0, 0, 0, 1],  // unique local
            [0xFE80, 0, 0, 0, 0, 0, 0, 1],  // link-local
            [0xFF02, 0, 0, 0, 0, 0, 0, 1],  // multicast
            [0x2001, 0x0DB8, 0, 0, 0, 0, 0, 1],  // documentation
            [0x2001, 0, 0, 0, 0, 0, 0, 1],  // Teredo
            [0x0100, 0, 0, 0, 0, 0, 0, 1],  // discard-only
            [0x4000, 0, 0, 0, 0, 0, 0, 1],  // outside 2000::/3
        ]
        for a in refused { XCTAssertNotNil(AddressRules.nonPublicReason(v6(a)), "\(a)") }
        XCTAssertEqual(AddressRules.nonPublicReason(v4("127.0.0.1")), "loopback (127.0.0.0/8)")
        XCTAssertNil(AddressRules.nonPublicReason(v6([0, 0, 0, 0, 0, 0xFFFF, 0x0808, 0x0808])), "::ffff:8.8.8.8")
    }

    /// The client refuses before connecting: a listener on 127.0.0.1 would be reached
    /// otherwise (none needs to exist for the refusal).
    func testTheClientRefusesALoopbackDestination() throws {
        let client = try HTTPSClient(rootsFile: nil, userAgent: "t")
        XCTAssertThrowsError(
            try client.send(
                "POST", "http://127.0.0.1:9/", body: [], timeoutMilliseconds: 2_000,
                options: HTTPSClient.Options(allowHTTP: true, publicAddressesOnly: true))
        ) { error in
            guard case .refused(let why)? = error as? NetworkError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("loopback"), why)
        }
        XCTAssertThrowsError(
            try client.send("POST", "http://example.com/", body: [], options: HTTPSClient.Options(allowHTTP: false))
        ) { error in XCTAssertEqual(error as? NetworkError, .badURL("http://example.com/")) }
    }

    func testAnAnswerIsReadUpToTheCap() {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n".utf8)
        let bytes = head + [UInt8](repeating: 65, count: 3_000)
        XCTAssertNil(ResponseParser.truncated(bytes, maxBody: 3_000))
        let cut = ResponseParser.truncated(bytes, maxBody: 2_048)
        XCTAssertEqual(cut?.status, 200)
        XCTAssertEqual(cut?.body.count, 2_048)
    }

    func testURLsOfWebhooks() {
        XCTAssertNil(HTTPSURL("http://a.example/x"))
        let u = HTTPSURL("http://a.example:8080/x?y=1", allowHTTP: true)
        XCTAssertEqual(u?.isTLS, false)
        XCTAssertEqual(u?.port, 8080)
        XCTAssertEqual(u?.description, "http://a.example:8080/x?y=1")
        XCTAssertEqual(HTTPSURL("http://a.example/", allowHTTP: true)?.port, 80)
    }
}

final class WebhookVerdictTests: XCTestCase {
    let delivery = WebhookDelivery(
        endpointId: "e", messageId: "msg_1", type: .openCreated, body: [], createdAt: 0, state: .pending, attempts: 0,
        scheduledAttempts: 0, scheduleStartedAt: 0, nextAttemptAt: 0, lastStatus: nil, lastError: nil,
        deliveredAt: nil, updatedAt: 0)

    func outcome(_ status: Int?, retryAfter: Int64? = nil, tried: Int = 0, now: Int64 = 0) -> WebhookAttemptOutcome {
        var d = delivery
        d.scheduledAttempts = tried
        return WebhookVerdict.outcome(
            status: status, retryAfter: retryAfter, delivery: d, schedule: WebhookRetrySchedule(), now: now,
            random: 0.5)
    }

    func testOnly2xxIsDelivered() {
        XCTAssertEqual(outcome(200), .delivered)
        XCTAssertEqual(outcome(204), .delivered)
        for status in [301, 302, 400, 404, 410, 500, 503] {
            XCTAssertEqual(outcome(status), .retry(at: 5_000), "\(status)")
        }
        XCTAssertEqual(outcome(nil), .retry(at: 5_000))
    }

    func testRetryAfterCountsOn429And503Only() {
        XCTAssertEqual(outcome(429, retryAfter: 60_000), .retry(at: 60_000))
        XCTAssertEqual(outcome(503, retryAfter: 60_000), .retry(at: 60_000))
        XCTAssertEqual(outcome(500, retryAfter: 60_000), .retry(at: 5_000))
    }

    /// Issue 33 item 2: a receiver's answer is kept as storable text, whatever its bytes.
    func testAnAnswerIsKeptAsStorableText() {
        XCTAssertNil(WebhookVerdict.answerText([]))
        XCTAssertEqual(WebhookVerdict.answerText(Array("ok".utf8) + [0, 0xFF]), "ok\u{FFFD}\u{FFFD}")
        let long = WebhookVerdict.answerText([UInt8](repeating: 0, count: 5_000))
        XCTAssertEqual(long?.unicodeScalars.count, WebhookAttempt.keptAnswerBytes)
        XCTAssertEqual(long?.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" }, true)
        // An attempt made from outside text holds no NUL, however it was given.
        let a = WebhookAttempt(
            endpointId: "e", messageId: "m", number: 1, at: 0, durationMilliseconds: 1, status: nil,
            error: "refused\u{0}", answer: "a\u{0}b", node: "n")
        XCTAssertEqual(a.error, "refused\u{FFFD}")
        XCTAssertEqual(a.answer, "a\u{FFFD}b")
    }

    func testTheScheduleEnds() {
        XCTAssertEqual(outcome(500, tried: 10), .failed)
    }

    func testHeadersFollowStandardWebhooks() throws {
        var d = delivery
        d.messageId = "msg_p5jXN8AQM9LWM0D4loKWxJek"
        d.body = Array(#"{"test": 2432232314}"#.utf8)
        let e = WebhookEndpoint(
            id: "e", url: "https://x.example/", eventTypes: [.openCreated],
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", createdAt: 0, updatedAt: 0)
        let headers = WebhookRequest.headers(
            d, secrets: e.signingSecrets(at: 1_614_265_330_999), nowMilliseconds: 1_614_265_330_999)
        XCTAssertEqual(headers.first { $0.0 == "webhook-timestamp" }?.1, "1614265330")
        XCTAssertEqual(headers.first { $0.0 == "webhook-id" }?.1, "msg_p5jXN8AQM9LWM0D4loKWxJek")
        XCTAssertEqual(
            headers.first { $0.0 == "webhook-signature" }?.1, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }
}
