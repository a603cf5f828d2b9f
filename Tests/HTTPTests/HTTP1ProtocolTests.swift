import HTTPMessages
import XCTest

@testable import HTTP

/// The HTTP/1.1 side of a connection (`EventLoop+HTTP1.swift`) without a socket: bytes
/// go into the connection's input, answers come out of its output.
final class HTTP1ProtocolTests: XCTestCase {
    /// Answers with the path; defers `/slow`.
    final class PathHandler: HTTPHandler {
        func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
            if request.path == "/slow" {
                _ = context.deferResponse()
                return .deferred
            }
            return .response(.text(200, "at " + request.path))
        }
    }

    func testPipelinedRequestsAreAnsweredInOrderAndTheConnectionStaysOpen() throws {
        let (loop, conn) = try makeConnection()
        receive(conn, "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\nGET /c HTTP/1.1\r\nHo")
        loop.serveRequests(conn)
        let out = sent(conn)
        XCTAssertEqual(statusLines(out), ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
        XCTAssertLessThan(
            try XCTUnwrap(out.range(of: "at /a")).lowerBound, try XCTUnwrap(out.range(of: "at /b")).lowerBound)
        XCTAssertEqual(conn.input.readableCount, "GET /c HTTP/1.1\r\nHo".utf8.count, "the partial request waits")
        XCTAssertEqual(loop.outputSent(conn), .waiting)
        XCTAssertFalse(conn.closeAfterFlush)
    }

    func testConnectionCloseEndsTheConnectionOnceTheAnswerIsSent() throws {
        let (loop, conn) = try makeConnection()
        receive(conn, "GET /a HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        loop.serveRequests(conn)
        let out = sent(conn)
        XCTAssertEqual(statusLines(out), ["HTTP/1.1 200 OK"], "nothing after the request that closes")
        XCTAssertTrue(out.lowercased().contains("\r\nconnection: close\r\n"))
        XCTAssertEqual(loop.outputSent(conn), .finished)
    }

    func testADeferredAnswerHoldsBackTheRequestsBehindIt() throws {
        let (loop, conn) = try makeConnection()
        receive(conn, "GET /slow HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        loop.serveRequests(conn)
        XCTAssertEqual(sent(conn), "")
        XCTAssertEqual(conn.pending?.target, "/slow")
        XCTAssertFalse(conn.owesNothing)
        XCTAssertEqual(loop.outputSent(conn), .waiting, "the next request waits for the deferred answer")
        XCTAssertEqual(sent(conn), "")
    }

    func testAMalformedRequestGets400AndTheConnectionEnds() throws {
        let (loop, conn) = try makeConnection()
        receive(conn, "GET /a HTTP/1.1\r\nHost: h\r\nBad Header: x\r\n\r\n")
        loop.serveRequests(conn)
        XCTAssertEqual(statusLines(sent(conn)), ["HTTP/1.1 400 Bad Request"])
        XCTAssertTrue(conn.input.isEmpty, "the rest of the input is dropped")
        XCTAssertEqual(loop.outputSent(conn), .finished)
    }

    func testExpectContinueIsAnsweredOnceBeforeTheBody() throws {
        let (loop, conn) = try makeConnection()
        receive(conn, "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        loop.serveRequests(conn)
        loop.serveRequests(conn)
        XCTAssertEqual(sent(conn), "HTTP/1.1 100 Continue\r\n\r\n")
        receive(conn, "ok")
        loop.serveRequests(conn)
        XCTAssertEqual(statusLines(sent(conn)), ["HTTP/1.1 200 OK"])
    }

    func testASlowHeadGets408AndAnIdleConnectionNothing() throws {
        let (loop, idle) = try makeConnection()
        XCTAssertFalse(loop.answerRequestTimeout(idle), "no request begun: closed without an answer")
        let (_, slow) = try makeConnection()
        receive(slow, "GET /a HTTP/1.1\r\nHo")
        loop.serveRequests(slow)
        slow.deadline.enter(slow.currentPhase, now: loop.now)
        XCTAssertTrue(loop.answerRequestTimeout(slow))
        XCTAssertEqual(statusLines(sent(slow)), ["HTTP/1.1 408 Request Timeout"])
        XCTAssertTrue(slow.input.isEmpty)
        XCTAssertEqual(loop.outputSent(slow), .finished)
    }

    // MARK: Helpers

    /// A connection on a loop that listens nowhere; its descriptor is never used here.
    private func makeConnection() throws -> (EventLoop, Connection) {
        var configuration = HTTPServerConfiguration()
        configuration.accessLog = false
        let loop = try EventLoop(
            index: 0, configuration: configuration, handler: PathHandler(), listeners: [],
            certificates: CertificateSet.load(directory: nil))
        let conn = Connection(
            fd: -1, generation: 1, listener: .http, peerAddress: "127.0.0.1", limits: configuration.limits,
            timeouts: configuration.timeouts, now: loop.now, tls: nil)
        return (loop, conn)
    }

    private func receive(_ conn: Connection, _ text: String) { conn.input.append(text) }

    /// Everything answered so far, taken out of the output as if sent.
    private func sent(_ conn: Connection) -> String {
        let text = String(decoding: conn.output.readable, as: UTF8.self)
        conn.output.consume(conn.output.readableCount)
        return text
    }

    /// The status line of each response in `out` (bodies here never contain `HTTP/1.1 `).
    private func statusLines(_ out: String) -> [String] {
        out.components(separatedBy: "HTTP/1.1 ").dropFirst().map {
            "HTTP/1.1 " + ($0.components(separatedBy: "\r\n").first ?? "")
        }
    }
}
