import Core
import XCTest

@testable import Certificates
@testable import Outbound

/// What comes from the CA: responses on the wire, Retry-After, URLs, problem documents,
/// directories and renewal information.
final class ParsingTests: XCTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func done(_ outcome: ResponseParser.Outcome, file: StaticString = #filePath, line: UInt = #line)
        -> HTTPSResponse?
    {
        if case .done(let r) = outcome { return r }
        XCTFail("not done: \(outcome)", file: file, line: line)
        return nil
    }

    func testAResponseFramedByContentLengthWaitsForItsWholeBody() {
        let text =
            "HTTP/1.1 201 Created\r\nReplay-Nonce: abc\r\nLocation: https://ca.test/o/1\r\nContent-Length: 5\r\n\r\n"
        if case .incomplete = ResponseParser.parse(bytes(text + "{}"), headOnly: false, ended: false) {
        } else {
            XCTFail("two of five bytes")
        }
        let r = done(ResponseParser.parse(bytes(text + "{\"a\"}"), headOnly: false, ended: false))
        XCTAssertEqual(r?.status, 201)
        XCTAssertEqual(r?.header("replay-nonce"), "abc")
        XCTAssertEqual(r?.header("LOCATION"), "https://ca.test/o/1")
        XCTAssertEqual(r?.body, bytes("{\"a\"}"))
        if case .invalid = ResponseParser.parse(bytes(text + "{}"), headOnly: false, ended: true) {
        } else {
            XCTFail("closed inside the body")
        }
    }

    func testAChunkedBodyIsJoinedWithExtensionsAndTrailersSkipped() {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n-----\r\n0\r\nX-Trailer: y\r\n\r\n"
        if case .invalid = ResponseParser.parse(bytes(text), headOnly: false, ended: false) {
        } else {
            XCTFail("a chunk of 4 with 5 bytes is malformed")
        }
        let good =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n-----\r\n3\r\nBEG\r\n0\r\nX-Trailer: y\r\n\r\n"
        XCTAssertEqual(done(ResponseParser.parse(bytes(good), headOnly: false, ended: false))?.body, bytes("-----BEG"))
        if case .incomplete = ResponseParser.parse(bytes(String(good.dropLast(2))), headOnly: false, ended: false) {
        } else {
            XCTFail("the last empty line is missing")
        }
    }

    func testABodyWithoutFramingRunsToTheEndOfTheConnectionAndHEADHasNone() {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/pem-certificate-chain\r\n\r\n-----BEGIN"
        if case .incomplete = ResponseParser.parse(bytes(text), headOnly: false, ended: false) {
        } else {
            XCTFail("not ended yet")
        }
        XCTAssertEqual(done(ResponseParser.parse(bytes(text), headOnly: false, ended: true))?.body, bytes("-----BEGIN"))
        let head = "HTTP/1.1 200 OK\r\nReplay-Nonce: n1\r\nContent-Length: 100\r\n\r\n"
        XCTAssertEqual(
            done(ResponseParser.parse(bytes(head), headOnly: true, ended: false))?.header("Replay-Nonce"), "n1")
        if case .invalid = ResponseParser.parse(bytes("garbage\r\n\r\n"), headOnly: false, ended: false) {
        } else {
            XCTFail("not a status line")
        }
    }

    func testLinkHeadersAreFoundByRelation() {
        let r = HTTPSResponse(
            status: 200,
            headers: [
                ("Link", "<https://ca.test/dir>;rel=\"index\""),
                ("Link", "<https://ca.test/cert/1/alt>; rel=\"alternate\", <https://ca.test/x>;rel=\"up\""),
            ], body: [])
        XCTAssertEqual(r.links(relation: "alternate"), ["https://ca.test/cert/1/alt"])
        XCTAssertEqual(r.links(relation: "index"), ["https://ca.test/dir"])
    }

    func testRetryAfterTakesSecondsOrAnHTTPDate() {
        let now = Timestamp.parse("2024-01-01T00:00:00Z")!
        XCTAssertEqual(RetryAfter.milliseconds("120", now: now), 120_000)
        XCTAssertEqual(RetryAfter.milliseconds("Mon, 01 Jan 2024 01:00:00 GMT", now: now), 3_600_000)
        XCTAssertEqual(RetryAfter.milliseconds("Sun, 31 Dec 2023 23:00:00 GMT", now: now), 0)
        XCTAssertNil(RetryAfter.milliseconds("soon", now: now))
        XCTAssertNil(RetryAfter.milliseconds(nil, now: now))
    }

    func testHTTPSURLs() {
        let u = HTTPSURL("https://acme-v02.api.letsencrypt.org/directory")
        XCTAssertEqual(u?.host, "acme-v02.api.letsencrypt.org")
        XCTAssertEqual(u?.port, 443)
        XCTAssertEqual(u?.target, "/directory")
        let p = HTTPSURL("https://127.0.0.1:14000")
        XCTAssertEqual(p?.port, 14000)
        XCTAssertEqual(p?.target, "/")
        XCTAssertEqual(p?.isIPAddress, true)
        XCTAssertEqual(HTTPSURL("https://[::1]:8443/dir?x=1")?.host, "::1")
        XCTAssertEqual(HTTPSURL("https://[::1]:8443/dir?x=1")?.target, "/dir?x=1")
        XCTAssertNil(HTTPSURL("http://ca.test/dir"), "plain HTTP is refused")
        XCTAssertNil(HTTPSURL("https://user@ca.test/"))
        XCTAssertNil(HTTPSURL("https://ca.test:99999/"))
    }

    func testProblemDocumentsAndTheirKinds() throws {
        let json = try JSONParser.parse(
            """
            {"type":"urn:ietf:params:acme:error:rejectedIdentifier","detail":"Error creating new order",
             "subproblems":[{"type":"urn:ietf:params:acme:error:dns","detail":"NXDOMAIN looking up A for x.test"}]}
            """)
        let p = try XCTUnwrap(ACMEProblem(json: json, status: 400, retryAfterMilliseconds: nil))
        XCTAssertEqual(p.type, "urn:ietf:params:acme:error:rejectedIdentifier")
        XCTAssertEqual(p.detail, "Error creating new order (NXDOMAIN looking up A for x.test)")
        XCTAssertTrue(
            ACMEProblem(type: ACMEProblem.acmePrefix + "badNonce", detail: "").isBadNonce)
        XCTAssertTrue(ACMEProblem(type: ACMEProblem.acmePrefix + "rateLimited", detail: "").isRateLimited)
        XCTAssertNil(ACMEProblem(json: ["detail": "no type"], status: 400, retryAfterMilliseconds: nil))
    }

    /// Issue 33 item 2: a CA's problem is outside text, kept as `StorableText` makes it.
    func testAProblemWithANulIsStorable() throws {
        let json = try JSONParser.parse(#"{"type":"urn:x\u0000","detail":"bad\u0000news"}"#)
        let p = try XCTUnwrap(ACMEProblem(json: json, status: 400, retryAfterMilliseconds: nil))
        XCTAssertEqual(p.type, "urn:x\u{FFFD}")
        XCTAssertEqual(p.detail, "bad\u{FFFD}news")
    }

    func testADirectoryAndItsRenewalInformation() throws {
        let json = try JSONParser.parse(
            """
            {"newNonce":"https://ca.test/nonce","newAccount":"https://ca.test/acct","newOrder":"https://ca.test/order",
             "renewalInfo":"https://ca.test/renewal-info","meta":{"externalAccountRequired":true,
             "termsOfService":"https://ca.test/tos"}}
            """)
        let d = try XCTUnwrap(ACMEDirectory(json: json))
        XCTAssertEqual(d.renewalInfo, "https://ca.test/renewal-info")
        XCTAssertTrue(d.externalAccountRequired)
        XCTAssertNil(ACMEDirectory(json: ["newNonce": "x"]))
        XCTAssertEqual(
            RenewalWindow.url(base: d.renewalInfo!, certificateID: "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE"),
            "https://ca.test/renewal-info/aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE")

        // RFC 9773, section 4.2's example answer.
        let window = try XCTUnwrap(
            RenewalWindow(
                json: try JSONParser.parse(
                    """
                    {"suggestedWindow":{"start":"2025-01-02T04:00:00Z","end":"2025-01-03T04:00:00Z"},
                     "explanationURL":"https://acme.example.com/docs/ari"}
                    """)))
        XCTAssertEqual(window.start, Timestamp.parse("2025-01-02T04:00:00Z"))
        XCTAssertEqual(window.end - window.start, 86_400_000)
        XCTAssertEqual(window.explanationURL, "https://acme.example.com/docs/ari")
        XCTAssertNil(
            RenewalWindow(
                json: ["suggestedWindow": ["start": "2025-01-03T04:00:00Z", "end": "2025-01-02T04:00:00Z"]]),
            "a window that ends before it starts is ignored")
        XCTAssertNil(RenewalWindow(json: ["suggestedWindow": ["start": "soon"]]))
    }
}
