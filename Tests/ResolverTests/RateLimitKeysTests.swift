import XCTest

@testable import Resolver

final class RateLimitKeysTests: XCTestCase {
    func testTheHashIsSipHash24UnderTheSeed() {
        // The reference implementation's first vector: key 00..0f, empty message.
        let keys = RateLimitKeys(seed: Array(0..<16))
        XCTAssertEqual(keys.key(bytes: []), 0x726f_db47_dd0e_0e31)
        XCTAssertEqual(keys.key(bytes: Array(0..<15)), 0xa129_ca61_49be_45e5)
    }

    func testNodesWithTheSameSeedAgreeAndOthersDoNot() {
        let seed = (0..<16).map { UInt8($0 * 3) }
        let a = RateLimitKeys(seed: seed)
        let b = RateLimitKeys(seed: seed)
        XCTAssertEqual(a.key("203.0.113.9"), b.key("203.0.113.9"))
        XCTAssertEqual(a.key("biq_mapp_1", "install_2"), b.key("biq_mapp_1", "install_2"))
        XCTAssertNotEqual(RateLimitKeys.random().key("203.0.113.9"), a.key("203.0.113.9"))
    }

    func testCompositeKeysAreLengthDelimited() {
        let k = RateLimitKeys.random()
        XCTAssertNotEqual(k.key("ab", "c"), k.key("a", "bc"))
        XCTAssertNotEqual(k.key("a", ""), k.key("", "a"))
        XCTAssertNotEqual(k.key("abc"), k.key("ab", "c"))
    }
}
