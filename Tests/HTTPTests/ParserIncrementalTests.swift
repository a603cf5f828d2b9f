import HTTPMessages
import XCTest

@testable import HTTP

/// However the input is cut into reads, the parser must give the same answer as for one read:
/// a different answer would be a framing ambiguity of its own.
final class ParserIncrementalTests: XCTestCase {
    private typealias H = ParserHarness

    private var inputs: [([UInt8], HTTPLimits)] {
        ParserVectors.valid.map { ($0, HTTPLimits()) }
            + ParserVectors.all.filter { $0.raw.count < 1500 }.map { ($0.raw, $0.limits) }
    }

    func testEverySinglePointSplitMatchesOneShot() {
        for (input, limits) in inputs {
            let expected = H.describe(H.oneShot(input, limits: limits))
            for cut in 0...input.count {
                let got = H.describe(H.fed(input, cuts: [cut], limits: limits))
                XCTAssertEqual(
                    got, expected, "cut at \(cut) of \(String(decoding: input, as: UTF8.self).debugDescription)")
                if got != expected { break }
            }
        }
    }

    func testByteByByteMatchesOneShot() {
        for (input, limits) in inputs {
            XCTAssertEqual(
                H.describe(H.byteByByte(input, limits: limits)), H.describe(H.oneShot(input, limits: limits)),
                String(decoding: input, as: UTF8.self).debugDescription)
        }
    }

    func testRandomMultiPointSplitsMatchOneShot() {
        var rng = SplitMix64(seed: 0x5EED)
        for (input, limits) in inputs {
            let expected = H.describe(H.oneShot(input, limits: limits))
            for _ in 0..<20 {
                let cuts = (0..<Int(rng.next() % 6)).map { _ in Int(rng.next() % UInt64(input.count + 1)) }.sorted()
                XCTAssertEqual(H.describe(H.fed(input, cuts: cuts, limits: limits)), expected, "cuts \(cuts)")
            }
        }
    }

    func testNeedMoreNeverHoldsMoreThanMaxBufferedBytes() {
        let small = ParserVectors.small
        let atLimits = H.bytes(
            "POST /" + String(repeating: "p", count: 40) + " HTTP/1.1\r\nHost: a\r\nContent-Length: 16\r\n"
                + "X: " + String(repeating: "h", count: 35) + "\r\n\r\n" + String(repeating: "b", count: 16))
        XCTAssertNotNil(H.request(H.oneShot(atLimits, limits: small)))
        for (input, limits) in inputs + [(atLimits, small)] {
            var parser = HTTPRequestParser(limits: limits)
            for cut in 0...input.count {
                guard case .needMore = H.parse(Array(input[..<cut]), parser: &parser) else { break }
                XCTAssertLessThanOrEqual(cut, limits.maxBufferedBytes)
            }
        }
        XCTAssertEqual(HTTPLimits().maxBufferedBytes, 2_135_052, "the figure documented for the connection")
    }

    func testPipelinedRequestsAreTheSameByteByByte() {
        let raw = ParserVectors.valid[4]
        var oneShot: [String] = []
        var input = raw
        var parser = HTTPRequestParser()
        while case .request(let r, let consumed) = H.parse(input, parser: &parser) {
            oneShot.append(H.describe(.request(r, consumed: consumed)))
            input.removeFirst(consumed)
        }
        // Now deliver the same stream one byte per read, as a slow client would.
        var trickled: [String] = []
        var buffer: [UInt8] = []
        parser = HTTPRequestParser()
        for byte in raw {
            buffer.append(byte)
            while case .request(let r, let consumed) = H.parse(buffer, parser: &parser) {
                trickled.append(H.describe(.request(r, consumed: consumed)))
                buffer.removeFirst(consumed)
            }
        }
        XCTAssertEqual(oneShot.count, 3)
        XCTAssertEqual(trickled, oneShot)
        XCTAssertEqual(buffer, input)
    }

    func testLargeHeadArrivingByteByByteIsNotRescanned() {
        // 16 KB delivered one byte per call: quadratic rescanning would take ~130M byte visits.
        var raw = H.bytes("GET / HTTP/1.1\r\nHost: a\r\n")
        for i in 0..<90 { raw += H.bytes("X-\(i): " + String(repeating: "v", count: 160) + "\r\n") }
        raw += H.bytes("\r\n")
        var parser = HTTPRequestParser()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(raw.count)
        var result: HTTPRequestParser.Step = .needMore
        let start = ContinuousClock.now
        for byte in raw {
            buffer.append(byte)
            result = buffer.withUnsafeBytes { parser.parse($0) }
        }
        let elapsed = ContinuousClock.now - start
        XCTAssertEqual(H.request(result)?.0.headers.count, 91)
        XCTAssertLessThan(elapsed, .seconds(2), "\(raw.count) single-byte calls took \(elapsed)")
    }
}

/// A small deterministic generator so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
