import HTTP
import HTTPMessages
import XCTest

@testable import Edge

/// Who the client is behind trusted proxies, and when the edge cannot know (issue 23 item 1).
final class ClientAddressResolverTests: XCTestCase {
    let behindLoopback = ClientAddressResolver(trusted: [CIDR("127.0.0.1/32")!])

    private func forwarded(_ values: String...) -> HTTPHeaders {
        HTTPHeaders(values.map { ("X-Forwarded-For", $0) })
    }

    func testAnUntrustedPeerIsTheClientWhateverItForwards() {
        let client = behindLoopback.client(peer: "203.0.113.9", headers: forwarded("127.0.0.1"))
        XCTAssertEqual(client, .init(address: "203.0.113.9", known: true))
        XCTAssertFalse(client.isLoopback)
        let local = ClientAddressResolver(trusted: []).client(peer: "127.0.0.1", headers: forwarded("203.0.113.50"))
        XCTAssertEqual(local, .init(address: "127.0.0.1", known: true))
        XCTAssertTrue(local.isLoopback)
    }

    func testATrustedProxysClientIsTheRightmostUntrustedForwardedAddress() {
        let client = behindLoopback.client(
            peer: "127.0.0.1", headers: forwarded("127.0.0.1, 198.51.100.7", "203.0.113.50:4711"))
        XCTAssertEqual(client, .init(address: "203.0.113.50", known: true))
        XCTAssertFalse(client.isLoopback)
        let v6 = behindLoopback.client(peer: "127.0.0.1", headers: forwarded("[2001:db8::5]:443"))
        XCTAssertEqual(v6, .init(address: "2001:db8::5", known: true))
    }

    func testATrustedProxyThatNamesNobodyLeavesTheClientUnknown() {
        let none = behindLoopback.client(peer: "127.0.0.1", headers: HTTPHeaders())
        XCTAssertEqual(none, .init(address: "127.0.0.1", known: false))
        XCTAssertFalse(none.isLoopback)
        let garbage = behindLoopback.client(peer: "127.0.0.1", headers: forwarded("unknown"))
        XCTAssertEqual(garbage, .init(address: "127.0.0.1", known: false))
        XCTAssertFalse(garbage.isLoopback)
    }

    func testAProxyHeaderWithoutAClientLeavesItUnknownEvenFromAnUntrustedAddress() {
        let client = behindLoopback.client(peer: "127.0.0.1", proxyClientUnknown: true, headers: HTTPHeaders())
        XCTAssertEqual(client, .init(address: "127.0.0.1", known: false))
        XCTAssertFalse(client.isLoopback)
    }

    func testEveryHopTrustedMeansTheFirstHopSawTheClient() {
        let chain = ClientAddressResolver(trusted: [CIDR("127.0.0.0/8")!])
        let client = chain.client(peer: "127.0.0.1", headers: forwarded("127.0.0.9, 127.0.0.2"))
        XCTAssertEqual(client, .init(address: "127.0.0.9", known: true))
        XCTAssertTrue(client.isLoopback)
    }

    func testLoopbackIsOneTwentySevenSlashEightAndColonColonOneOnly() {
        for address in ["127.0.0.1", "127.255.0.9", "::1"] {
            XCTAssertTrue(ClientAddressResolver.isLoopback(address), address)
        }
        for address in ["128.0.0.1", "10.127.0.1", "::2", "::ffff:7f00:1x", "127.0.0.1.example", "localhost", ""] {
            XCTAssertFalse(ClientAddressResolver.isLoopback(address), address)
        }
    }
}
