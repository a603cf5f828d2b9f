import XCTest

@testable import HTTP

final class CIDRTests: XCTestCase {
    func testBlocksOfBothFamilies() throws {
        let ten = try XCTUnwrap(CIDR("10.0.0.0/8"))
        XCTAssertTrue(ten.contains("10.255.1.2"))
        XCTAssertFalse(ten.contains("11.0.0.1"))
        XCTAssertTrue(ten.contains("::ffff:10.1.2.3"), "an IPv4-mapped peer of a dual-stack listener")
        XCTAssertFalse(ten.contains("not an address"))
        let one = try XCTUnwrap(CIDR("127.0.0.1"))
        XCTAssertTrue(one.contains("127.0.0.1"))
        XCTAssertFalse(one.contains("127.0.0.2"))
        let v6 = try XCTUnwrap(CIDR("2001:db8::/32"))
        XCTAssertTrue(v6.contains("2001:db8:ffff::1"))
        XCTAssertFalse(v6.contains("2001:db9::1"))
        XCTAssertFalse(v6.contains("10.0.0.1"))
        let odd = try XCTUnwrap(CIDR("192.168.4.0/22"))
        XCTAssertTrue(odd.contains("192.168.7.255"))
        XCTAssertFalse(odd.contains("192.168.8.0"))
        let all = try XCTUnwrap(CIDR("::/0"))
        XCTAssertTrue(all.contains("203.0.113.9"))
        XCTAssertTrue(all.contains("2001:db8::1"))
        let v6Half = try XCTUnwrap(CIDR("2001:db8::/65"))
        XCTAssertTrue(v6Half.contains("2001:db8::7fff:0:0:1"))
        XCTAssertFalse(v6Half.contains("2001:db8::8000:0:0:1"))
    }

    func testMalformedBlocks() {
        for text in ["10.0.0.0/33", "10.0.0.0/-1", "2001:db8::/129", "10.0.0.0/", "example.com", "10.0.0.0/8/8", ""] {
            XCTAssertNil(CIDR(text), text)
        }
    }

    func testDescriptionAndAddressText() throws {
        XCTAssertEqual(try XCTUnwrap(CIDR("10.1.2.3/8")).description, "10.0.0.0/8")
        XCTAssertEqual(try XCTUnwrap(CIDR("2001:db8::1/32")).description, "2001:db8::/32")
        XCTAssertEqual(IPAddress("::ffff:192.0.2.1")?.description, "192.0.2.1")
        XCTAssertEqual(IPAddress("2001:DB8::1")?.description, "2001:db8::1")
        XCTAssertNil(IPAddress("192.0.2.256"))
    }
}
