import Foundation
import HTTPMessages
import XCTest

@testable import HTTP

/// A loop that answers a request after `HTTPServer.shutdown` began but before its own
/// `beginShutdown` post ran must still say `Connection: close` (the black-box shutdown
/// test once lost that race on a busy machine).
final class ShutdownFlagTests: XCTestCase {
    /// Starts the server's shutdown from inside the handler: the loop is busy here, so
    /// its own shutdown post cannot have run when the answer is written.
    final class ShutdownInsideHandler: HTTPHandler, @unchecked Sendable {
        var server: HTTPServer?

        func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
            server?.shutdown()
            return .response(.text(200, "ok\n"))
        }
    }

    func testAnAnswerWrittenAfterShutdownBeganClosesTheConnection() throws {
        var configuration = HTTPServerConfiguration()
        configuration.loops = 1
        configuration.httpAddress = .init(host: "127.0.0.1", port: 0)
        configuration.httpsAddress = nil
        configuration.accessLog = false
        let handler = ShutdownInsideHandler()
        let server = HTTPServer(configuration: configuration)
        handler.server = server
        try server.start(handler: handler)
        defer { server.wait() }
        let port = try XCTUnwrap(server.boundAddresses.first { $0.0 == .http }?.1.port)

        let fd = connectToLoopback(port: port)
        XCTAssertGreaterThanOrEqual(fd, 0, "connect: \(errno)")
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        XCTAssertEqual(request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }, request.count)

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {  // until the server closes (or the timeout)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self).lowercased()
        XCTAssertTrue(text.hasPrefix("http/1.1 200"), text)
        XCTAssertTrue(text.contains("\r\nconnection: close\r\n"), text)
    }
}
