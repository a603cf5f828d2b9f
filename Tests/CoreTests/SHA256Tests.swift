import Foundation
import XCTest

@testable import Core

final class SHA256Tests: XCTestCase {
    private func hex(_ text: String) -> String { SHA256.hex(SHA256.hash(Array(text.utf8))) }

    // FIPS 180-4 examples (NIST CSRC "SHA256.pdf" and the short-message vectors).
    func testNISTShortVectors() {
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            ),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testNISTOneMillionA() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        XCTAssertEqual(
            SHA256.hex(SHA256.hash(million)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55 fits one block, 56 needs two), checked with sha256sum.
    func testPaddingBoundaries() {
        let expected: [(Int, String)] = [
            (55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
            (56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"),
            (63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"),
            (64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
            (65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"),
            (119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
            (128, "24da1b81d0b16df6428eee73c69fcb2a93c76bc6df706f0c6670fe6bfe800464"),
        ]
        for (n, digest) in expected {
            XCTAssertEqual(hex(String(repeating: "x", count: n)), digest, "length \(n)")
        }
    }

    func testEveryInputShapeGivesTheSameDigest() {
        var bytes: [UInt8] = []
        for _ in 0..<5 { bytes.append(contentsOf: (0...255).map { UInt8($0) }) }
        let expected = "d414b085826eb06778483ba35564dc849e643359f69ed9747878ba6e54985bed"
        XCTAssertEqual(SHA256.hex(SHA256.hash(bytes)), expected)
        XCTAssertEqual(SHA256.hex(SHA256.hash(bytes[...])), expected)
        XCTAssertEqual(SHA256.hex(bytes.withUnsafeBytes { SHA256.hash($0) }), expected)
        XCTAssertEqual(SHA256.hex(SHA256.hash("abc")), SHA256.hex(SHA256.hash(Array("abc".utf8))))
        // A slice that does not start at 0.
        XCTAssertEqual(SHA256.hash(bytes[1...3]), SHA256.hash([1, 2, 3]))
    }

    func testAStringIsHashedAsItsUTF8Bytes() {
        let text = "bqmh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        let expected = "81bcf7407bf4e0f60c3ff84f7e72deabf766c364ac6a624d2f063bf5118dcdb6"
        XCTAssertEqual(SHA256.hex(SHA256.hash(text)), expected)
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array(text.utf8))), expected)
        XCTAssertEqual(SHA256.hash(text).count, SHA256.digestCount)
    }

    func testThreadsHashingAtOnceGetTheirOwnAnswers() {
        // OpenSSL's context is per thread: concurrent callers must not see each other's state.
        let inputs = (0..<8).map { t in (0..<500).map { i in "thread \(t) input \(i)" } }
        let expected = inputs.map { $0.map { SHA256.hash(Array($0.utf8)) } }
        let mismatches = Mismatches()
        DispatchQueue.concurrentPerform(iterations: inputs.count) { t in
            for (i, text) in inputs[t].enumerated() where SHA256.hash(text) != expected[t][i] {
                mismatches.add()
            }
        }
        XCTAssertEqual(mismatches.count, 0)
    }

    func testAnEmptyBufferWithoutAnAddressHashesAsEmpty() {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        XCTAssertEqual(
            SHA256.hex(SHA256.hash(empty)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var count: Int { lock.withLock { n } }
}
