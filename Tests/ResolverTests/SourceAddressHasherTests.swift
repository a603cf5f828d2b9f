import Model
import Store
import XCTest

final class SourceAddressHasherTests: XCTestCase {
    func testHashIsKeyedDeterministicAnd32Bytes() {
        let key = SourceAddressHasher.generateKey()
        let a = SourceAddressHasher(key: key)
        let b = SourceAddressHasher(key: key)
        let other = SourceAddressHasher(key: SourceAddressHasher.generateKey())
        XCTAssertEqual(a.hash("203.0.113.7").count, 32)
        XCTAssertEqual(a.hash("203.0.113.7"), b.hash("203.0.113.7"))
        XCTAssertNotEqual(a.hash("203.0.113.7"), other.hash("203.0.113.7"))
        XCTAssertNotEqual(a.hash("203.0.113.7"), a.hash("203.0.113.8"))
    }

    func testIPv4MappedIPv6HashesLikeIPv4() {
        let h = SourceAddressHasher(key: SourceAddressHasher.generateKey())
        for spelling in ["::ffff:203.0.113.7", "::FFFF:203.0.113.7", "[::ffff:203.0.113.7]", " 203.0.113.7 "] {
            XCTAssertEqual(h.hash(spelling), h.hash("203.0.113.7"), spelling)
        }
        XCTAssertEqual(h.hash("2001:DB8::1"), h.hash("2001:db8::1"))
        XCTAssertEqual(SourceAddressHasher.normalize("fe80::1%eth0"), "fe80::1")
        XCTAssertEqual(SourceAddressHasher.normalize("::ffff:999.1.1.1"), "::ffff:999.1.1.1")
    }

    func testKnownAnswer() {
        // BLAKE2b-256 keyed with 32 zero bytes over "203.0.113.7", computed with
        // Python's hashlib.blake2b(b"203.0.113.7", key=bytes(32), digest_size=32).
        let h = SourceAddressHasher(key: [UInt8](repeating: 0, count: 32))
        XCTAssertEqual(
            h.hash("::ffff:203.0.113.7").map { String(format: "%02x", $0) }.joined(),
            "00becbfbdd48a45037e9d11d14515461fd85c4092e32e2691281c54c0f525e4a")
    }
}

extension SourceAddressHasherTests {
    func testNormalisationFastPathAgreesWithTheGeneralOne() {
        for address in ["203.0.113.7", "10.0.0.1", "2001:db8::1", "fe80::a:b", "::1", "::ffff:1.2.3.4", "abc.def"] {
            let n = SourceAddressHasher.normalize(address)
            XCTAssertEqual(SourceAddressHasher.normalize(" " + address), n, address)
        }
        XCTAssertEqual(SourceAddressHasher.normalize("::ffff:1.2.3.4"), "1.2.3.4")
        XCTAssertEqual(SourceAddressHasher.normalize("2001:DB8::A"), "2001:db8::a")
    }
}
