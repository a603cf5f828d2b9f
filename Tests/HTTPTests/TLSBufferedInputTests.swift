import COpenSSL
import CSystem
import Foundation
import HTTPMessages
import XCTest

@testable import HTTP

/// Input that OpenSSL holds after the loop stopped reading at its input cap: epoll
/// cannot announce it, so the loop must read it by itself (`EventLoop.tlsBuffered`).
/// In process, with small limits, so that the cap is a few KiB.
final class TLSBufferedInputTests: XCTestCase {
    /// Blocks the loop on the first request, long enough for the client's whole burst
    /// to reach the server's socket before the loop reads again.
    final class SlowFirstHandler: HTTPHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var first = true

        func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
            let wait = lock.withLock { () -> Bool in
                defer { first = false }
                return first
            }
            if wait { usleep(300_000) }
            return .response(.text(200, "ok\n"))
        }
    }

    func testInputLeftInsideOpenSSLAtTheInputCapIsStillAnswered() throws {
        let dir = NSTemporaryDirectory() + "tls-buffered-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(csys_write_self_signed_pem(dir + "/default.pem", "localhost", 1), 1)

        var configuration = HTTPServerConfiguration()
        configuration.loops = 1
        configuration.httpAddress = nil
        configuration.httpsAddress = .init(host: "127.0.0.1", port: 0)
        configuration.certificateDirectory = dir
        configuration.accessLog = false
        configuration.limits = HTTPLimits(
            maxRequestLineBytes: 256, maxHeaderBytes: 1_024, maxHeaderCount: 10, maxBodyBytes: 1_024)
        let server = HTTPServer(configuration: configuration)
        try server.start(handler: SlowFirstHandler())
        defer {
            server.shutdown()
            server.wait()
        }
        let port = try XCTUnwrap(server.boundAddresses.first { $0.0 == .https }?.1.port)
        let cap = configuration.limits.maxBufferedBytes + 16 * 1024

        // The slow request, then pipelined requests just past the cap: the record that
        // crosses the cap is decrypted whole, so the loop's read stops at the cap with
        // the last bytes inside OpenSSL and nothing left in the socket.
        let one = "GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n"
        let count = (cap + 200) / one.utf8.count + 1
        let client = try TLSClient(port: port)
        defer { client.close() }
        try client.write("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n" + String(repeating: one, count: count))
        let answers = try client.readResponses(count + 1, timeoutSeconds: 3)
        XCTAssertEqual(answers, count + 1, "a stalled connection answers only what the loop read before the cap")
    }
}

/// A blocking TLS client over OpenSSL, without certificate checks (a self-signed test server).
private final class TLSClient {
    private let ctx: OpaquePointer
    private let ssl: OpaquePointer
    private let fd: Int32

    init(port: Int) throws {
        ctx = SSL_CTX_new(TLS_client_method())
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        let fd = connectToLoopback(port: port)
        self.fd = fd
        guard fd >= 0 else { throw TLSClientError("connect: \(errno)") }
        ssl = SSL_new(ctx)
        SSL_set_fd(ssl, fd)
        guard SSL_connect(ssl) == 1 else { throw TLSClientError("handshake failed") }
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { throw TLSClientError("write failed") }
            offset += Int(n)
        }
    }

    /// Reads until `count` responses arrived or nothing came for `timeoutSeconds`; returns how many.
    func readResponses(_ count: Int, timeoutSeconds: Int) throws -> Int {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var answers = 0
        let marker = Array("HTTP/1.1 200".utf8)
        var scanned = 0
        while answers < count {
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { break }  // a timeout or a close: the caller compares the count
            received.append(contentsOf: buffer[0..<Int(n)])
            while scanned + marker.count <= received.count {
                if received[scanned..<scanned + marker.count].elementsEqual(marker) { answers += 1 }
                scanned += 1
            }
        }
        return answers
    }

    func close() {
        SSL_free(ssl)
        SSL_CTX_free(ctx)
        Glibc.close(fd)
    }
}

private struct TLSClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
