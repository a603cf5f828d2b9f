import Core
import Foundation
import XCTest

@testable import Store

/// `Digest.sha256` (OpenSSL, one context per thread) against Core's pure-Swift SHA-256
/// and the standard's test vectors.
final class DigestTests: XCTestCase {
    func testKnownVectorsAndEveryLengthAcrossBlockBoundaries() {
        XCTAssertEqual(
            hex(Digest.sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            hex(Digest.sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var bytes: [UInt8] = []
        for n in 0...200 {
            XCTAssertEqual(Digest.sha256(bytes), SHA256.hash(bytes), "length \(n)")
            bytes.append(UInt8(truncatingIfNeeded: n &* 31 &+ 7))
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        XCTAssertEqual(Digest.sha256(empty), SHA256.hash([UInt8]()))
    }

    func testThreadsHashingAtOnceGetTheirOwnAnswers() {
        let inputs = (0..<8).map { t in (0..<500).map { i in "thread \(t) input \(i)" } }
        let expected = inputs.map { $0.map { SHA256.hash($0) } }
        let mismatches = Mismatches()
        DispatchQueue.concurrentPerform(iterations: inputs.count) { t in
            for (i, text) in inputs[t].enumerated() where Digest.sha256(text) != expected[t][i] {
                mismatches.add()
            }
        }
        XCTAssertEqual(mismatches.count, 0)
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var count: Int { lock.withLock { n } }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
