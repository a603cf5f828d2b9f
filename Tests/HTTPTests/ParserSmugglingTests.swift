import HTTPMessages
import XCTest

@testable import HTTP

/// Request-smuggling and malformed-framing vectors: each must be refused with its exact status,
/// whether it arrives at once, byte by byte, or followed by more input.
final class ParserSmugglingTests: XCTestCase {
    private typealias H = ParserHarness

    private func check(_ vectors: [ParserVectors.Vector], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(vectors.isEmpty)
        for vector in vectors {
            let step = H.oneShot(vector.raw, limits: vector.limits)
            XCTAssertEqual(H.status(step), vector.status, "\(vector.name): \(H.describe(step))", file: file, line: line)
        }
    }

    func testFramingVectorsGetTheirExactStatus() { check(ParserVectors.framing) }
    func testChunkVectorsGetTheirExactStatus() { check(ParserVectors.chunks) }
    func testFieldVectorsGetTheirExactStatus() { check(ParserVectors.fields) }
    func testRequestLineVectorsGetTheirExactStatus() { check(ParserVectors.requestLines) }
    func testLimitVectorsGetTheirExactStatus() { check(ParserVectors.limits) }

    func testVectorNamesAreUnique() {
        let names = ParserVectors.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
    }

    func testVectorsGetTheSameStatusByteByByte() {
        for vector in ParserVectors.all where vector.raw.count < 4096 {
            let step = H.byteByByte(vector.raw, limits: vector.limits)
            XCTAssertEqual(H.status(step), vector.status, "\(vector.name): \(H.describe(step))")
        }
    }

    func testVectorsGetTheSameStatusWhateverFollows() {
        let tail = H.bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n\r\n0\r\n\r\n")
        for vector in ParserVectors.all {
            let step = H.oneShot(vector.raw + tail, limits: vector.limits)
            XCTAssertEqual(H.status(step), vector.status, "\(vector.name): \(H.describe(step))")
        }
    }

    func testSmuggledSecondRequestIsNeverParsedAfterCLTE() {
        // A front end honouring Content-Length would forward `0\r\n\r\nG` as body; one honouring
        // chunked would see `G` start a new request. Refusing the head leaves nothing to smuggle.
        var parser = HTTPRequestParser()
        let raw = H.bytes(
            ParserVectors.post
                + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n")
        XCTAssertEqual(H.status(H.parse(raw, parser: &parser)), 400)
        XCTAssertEqual(H.status(H.parse(raw + H.bytes("Host: a\r\n\r\n"), parser: &parser)), 400)
    }

    func testChunkedBodyEndsExactlyAtTheLastChunkSoTheNextRequestIsIntact() throws {
        let raw = H.bytes(ParserVectors.chunkedPost + "3\r\nabc\r\n0\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n")
        var parser = HTTPRequestParser()
        let (first, consumed) = try XCTUnwrap(H.request(H.parse(raw, parser: &parser)))
        XCTAssertEqual(first.body, H.bytes("abc"))
        let (second, _) = try XCTUnwrap(H.request(H.parse(Array(raw[consumed...]), parser: &parser)))
        XCTAssertEqual(second.target, "/next")
    }

    func testErrorsMapToTheirWireStatus() {
        XCTAssertEqual(HTTPParseError.badRequest("x").status, 400)
        XCTAssertEqual(HTTPParseError.uriTooLong.status, 414)
        XCTAssertEqual(HTTPParseError.headersTooLarge.status, 431)
        XCTAssertEqual(HTTPParseError.tooManyHeaders.status, 431)
        XCTAssertEqual(HTTPParseError.bodyTooLarge.status, 413)
        XCTAssertEqual(HTTPParseError.unsupportedTransferCoding.status, 501)
        XCTAssertEqual(HTTPParseError.versionNotSupported.status, 505)
    }

    func testLimitErrorsAreTheSpecificCases() {
        let small = ParserVectors.small
        let tooMany = H.oneShot(H.bytes(ParserVectors.get + "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n"), limits: small)
        guard case .error(.tooManyHeaders) = tooMany else { return XCTFail(H.describe(tooMany)) }
        let large = H.oneShot(H.bytes(ParserVectors.get + "A: " + String(repeating: "x", count: 200)), limits: small)
        guard case .error(.headersTooLarge) = large else { return XCTFail(H.describe(large)) }
    }
}
