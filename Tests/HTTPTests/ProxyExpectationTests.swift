import XCTest

@testable import HTTP

/// What the loop does with a connection's first bytes, by who the peer is and the mode.
final class ProxyExpectationTests: XCTestCase {
    let v1 = Array("PROXY TCP4 203.0.113.9 192.0.2.1 51234 443\r\n".utf8)
    let request = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
    let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0xF4, 0x01]

    func decide(_ e: ProxyExpectation, _ bytes: [UInt8], consumed: Int = 0, tls: Bool = false) -> ProxyDecision {
        bytes.withUnsafeBytes { e.decide($0, consumed: consumed, tls: tls) }
    }

    func testTheModeAndTheTrustDecideTheExpectation() {
        XCTAssertNil(ProxyExpectation(mode: .off, trusted: true))
        XCTAssertNil(ProxyExpectation(mode: .off, trusted: false))
        XCTAssertEqual(ProxyExpectation(mode: .on, trusted: true), .required)
        XCTAssertEqual(ProxyExpectation(mode: .on, trusted: false), .forbidden)
        XCTAssertEqual(ProxyExpectation(mode: .optional, trusted: true), .allowed)
        XCTAssertEqual(ProxyExpectation(mode: .optional, trusted: false), .forbidden)
    }

    func testATrustedProxyMustSendAHeaderWhenRequired() throws {
        guard case .accept(let h) = decide(.required, v1 + request) else { return XCTFail("not accepted") }
        XCTAssertEqual(h.source?.description, "203.0.113.9")
        XCTAssertEqual(decide(.required, Array(v1[0..<20])), .wait)
        XCTAssertEqual(decide(.required, request), .refuse(.missing))
        XCTAssertEqual(decide(.required, clientHello, tls: true), .refuse(.missing))
        XCTAssertEqual(decide(.required, Array("PROXY TCP4 x y 1 2\r\n".utf8)), .refuse(.malformed))
    }

    func testAnotherPeerIsServedAsUsualButItsHeaderIsRefused() {
        XCTAssertEqual(decide(.forbidden, request), .noHeader)
        XCTAssertEqual(decide(.forbidden, clientHello, tls: true), .noHeader)
        XCTAssertEqual(decide(.forbidden, v1 + request), .refuse(.untrusted))
        // As soon as the signature is whole, without waiting for the rest of the header.
        XCTAssertEqual(decide(.forbidden, Array("PROXY ".utf8)), .refuse(.untrusted))
        let v2 = ProxyTestBytes.v2(source: [1, 2, 3, 4], destination: [5, 6, 7, 8], ports: (1, 2))
        XCTAssertEqual(decide(.forbidden, Array(v2[0..<12]), tls: true), .refuse(.untrusted))
        XCTAssertEqual(decide(.forbidden, Array(v2[0..<11]), tls: true), .wait)
        XCTAssertEqual(decide(.forbidden, Array("PROXY garbage\r\n".utf8)), .refuse(.untrusted))
    }

    func testBytesTakenWhileTheyLookedLikeAHeaderGoToHTTPButNotToTLS() {
        // "P" arrived alone and was taken; then "OST": a plain request, which the HTTP
        // parser reads from the input buffer, "P" included.
        XCTAssertEqual(decide(.forbidden, Array("P".utf8)), .wait)
        XCTAssertEqual(decide(.forbidden, Array("POST / HTTP/1.1\r\n".utf8), consumed: 1), .noHeader)
        XCTAssertEqual(decide(.allowed, Array("POST / HTTP/1.1\r\n".utf8), consumed: 1), .noHeader)
        // OpenSSL cannot be given bytes already taken from the socket.
        XCTAssertEqual(decide(.forbidden, Array("POST".utf8), consumed: 1, tls: true), .refuse(.malformed))
        XCTAssertEqual(decide(.allowed, Array("PX".utf8), consumed: 1, tls: true), .refuse(.malformed))
    }

    func testAnOptionalHeaderMayComeOrNot() {
        guard case .accept = decide(.allowed, v1 + request) else { return XCTFail("not accepted") }
        XCTAssertEqual(decide(.allowed, request), .noHeader)
        XCTAssertEqual(decide(.allowed, clientHello, tls: true), .noHeader)
        XCTAssertEqual(decide(.allowed, Array(v1[0..<3])), .wait)
        XCTAssertEqual(decide(.allowed, Array("PROXY TCP4 1.2.3.4\r\n".utf8)), .refuse(.malformed))
    }
}
