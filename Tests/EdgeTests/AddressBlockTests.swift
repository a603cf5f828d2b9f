import XCTest

@testable import Edge

/// What a per-address rate limit counts as one client (issue 33 item 7).
final class AddressBlockTests: XCTestCase {
    func testEveryAddressOfAnIPv6SlashSixtyFourIsOneClient() {
        let key = AddressBlock.limitKey("2001:db8:1:2::1")
        XCTAssertEqual(key, "2001:db8:1:2::/64")
        for other in ["2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:DB8:1:2:a:b:c:d", "2001:db8:1:2::"] {
            XCTAssertEqual(AddressBlock.limitKey(other), key, other)
        }
        for neighbour in ["2001:db8:1:3::1", "2001:db8:1:1:ffff:ffff:ffff:ffff", "2001:db8::1"] {
            XCTAssertNotEqual(AddressBlock.limitKey(neighbour), key, neighbour)
        }
    }

    func testAnIPv4AddressIsItsOwnClientWhateverItsSpelling() {
        XCTAssertEqual(AddressBlock.limitKey("203.0.113.9"), "203.0.113.9")
        XCTAssertEqual(AddressBlock.limitKey("::ffff:203.0.113.9"), "203.0.113.9")
        XCTAssertNotEqual(AddressBlock.limitKey("203.0.113.10"), AddressBlock.limitKey("203.0.113.9"))
    }

    func testWhatIsNoAddressIsKeptAsItIs() {
        XCTAssertEqual(AddressBlock.limitKey("unknown"), "unknown")
        XCTAssertEqual(AddressBlock.limitKey(""), "")
    }
}
