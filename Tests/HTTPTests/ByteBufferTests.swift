import HTTPMessages
import XCTest

@testable import HTTP

final class ByteBufferTests: XCTestCase {
    func testAppendConsumeCompactAndGrow() {
        let b = ByteBuffer(capacity: 64)
        b.append(Array(repeating: 1, count: 60))
        b.consume(50)
        XCTAssertEqual(b.readableCount, 10)
        b.append(Array(repeating: 2, count: 40))  // fits after compaction, no growth
        XCTAssertEqual(b.capacity, 64)
        XCTAssertEqual(Array(b.readable), Array(repeating: 1, count: 10) + Array(repeating: 2, count: 40))
        b.append(Array(repeating: 3, count: 100))
        XCTAssertGreaterThanOrEqual(b.capacity, 150)
        XCTAssertEqual(b.readableCount, 150)
        b.consume(150)
        XCTAssertTrue(b.isEmpty)
    }

    func testDecimalFormatting() {
        for value in [0, 7, 10, 1234567, Int(Int32.max)] {
            let b = ByteBuffer(capacity: 8)
            b.append(decimal: value)
            XCTAssertEqual(String(decoding: Array(b.readable), as: UTF8.self), String(value))
        }
    }

    func testHTTPDateFormat() {
        XCTAssertEqual(HTTPDateCache.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDateCache.format(0), "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    func testSerializerFramesResponses() {
        let out = ByteBuffer(capacity: 64)
        var r = HTTPResponse.text(200, "hi")
        r.headers.add("Content-Length", "999")  // handlers cannot override framing
        ResponseSerializer.write(
            r, into: out, date: Array("D".utf8), omitBody: false, keepAlive: false, requestMinorVersion: 1,
            hsts: "max-age=1")
        let text = String(decoding: Array(out.readable), as: UTF8.self)
        XCTAssertEqual(
            text,
            "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 2\r\nConnection: close\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\nStrict-Transport-Security: max-age=1\r\n\r\nhi")
        let head = ByteBuffer(capacity: 64)
        ResponseSerializer.write(
            HTTPResponse(status: 304), into: head, date: Array("D".utf8), omitBody: true, keepAlive: true,
            requestMinorVersion: 0, hsts: nil)
        XCTAssertEqual(
            String(decoding: Array(head.readable), as: UTF8.self),
            "HTTP/1.1 304 Not Modified\r\nDate: D\r\nConnection: keep-alive\r\n\r\n")
    }

    func testSerializerDropsEveryFramingFieldAndKeepsAHandlersOwnHSTS() {
        var r = HTTPResponse.text(200, "ok")
        for name in ["DATE", "Connection", "content-LENGTH", "Transfer-Encoding"] { r.headers.add(name, "x") }
        // Same lengths as framing names, other names: kept.
        for name in ["Dat3", "Connectio_", "X-Frame-Option", "X-Transfer-Coding"] { r.headers.add(name, "y") }
        r.headers.add("strict-transport-SECURITY", "max-age=5")
        let out = ByteBuffer(capacity: 64)
        ResponseSerializer.write(
            r, into: out, date: Array("D".utf8), omitBody: false, keepAlive: true, requestMinorVersion: 1,
            hsts: "max-age=1")
        XCTAssertEqual(
            String(decoding: Array(out.readable), as: UTF8.self),
            "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 2\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Dat3: y\r\nConnectio_: y\r\nX-Frame-Option: y\r\nX-Transfer-Coding: y\r\n"
                + "strict-transport-SECURITY: max-age=5\r\n\r\nok")
    }
}
