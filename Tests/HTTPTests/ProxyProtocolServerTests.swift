import COpenSSL
import CSystem
import Foundation
import HTTPMessages
import XCTest

@testable import HTTP

/// The PROXY protocol on real sockets, in process: 127.0.0.1 is the trusted balancer and
/// 127.0.0.2 (a loopback source address of its own) a visitor who connects directly.
final class ProxyProtocolServerTests: XCTestCase {
    /// Answers every request with the client address the server saw.
    final class EchoAddress: HTTPHandler, @unchecked Sendable {
        func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
            .response(.text(200, context.peerAddress))
        }
    }

    var server: HTTPServer!
    var directory = ""
    var httpPort = 0
    var httpsPort = 0

    func start(_ mode: ProxyProtocolMode, trusted: String = "127.0.0.1/32", headMilliseconds: Int = 10_000) throws {
        directory = NSTemporaryDirectory() + "proxy-protocol-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertEqual(csys_write_self_signed_pem(directory + "/default.pem", "localhost", 1), 1)
        var configuration = HTTPServerConfiguration()
        configuration.loops = 1
        configuration.httpAddress = .init(host: "127.0.0.1", port: 0)
        configuration.httpsAddress = .init(host: "127.0.0.1", port: 0)
        configuration.certificateDirectory = directory
        configuration.accessLog = false
        configuration.proxyProtocol = mode
        configuration.trustedProxies = [try XCTUnwrap(CIDR(trusted))]
        configuration.timeouts = HTTPTimeouts(headMilliseconds: headMilliseconds)
        server = HTTPServer(configuration: configuration)
        try server.start(handler: EchoAddress())
        httpPort = try XCTUnwrap(server.boundAddresses.first { $0.0 == .http }?.1.port)
        httpsPort = try XCTUnwrap(server.boundAddresses.first { $0.0 == .https }?.1.port)
    }

    override func tearDown() {
        server?.shutdown()
        server?.wait()
        try? FileManager.default.removeItem(atPath: directory)
    }

    let request = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

    // MARK: Plain HTTP

    func testATrustedProxysV1HeaderNamesTheClient() throws {
        try start(.on)
        let answer = try exchange(httpPort, Array(("PROXY TCP4 203.0.113.9 127.0.0.1 51234 80\r\n" + request).utf8))
        XCTAssertEqual(body(answer), "203.0.113.9")
    }

    func testAV2HeaderArrivingInPiecesIsWaitedFor() throws {
        try start(.on)
        let header = ProxyTestBytes.v2(source: [198, 51, 100, 7], destination: [127, 0, 0, 1], ports: (4000, 80))
        let client = try TestSocket(port: httpPort)
        defer { client.close() }
        for piece in [Array(header[0..<5]), Array(header[5..<14]), Array(header[14...])] {
            client.send(piece)
            usleep(50_000)
        }
        client.send(Array(request.utf8))
        XCTAssertEqual(body(client.readToEnd()), "198.51.100.7")
    }

    func testALocalHeaderKeepsTheBalancersAddress() throws {
        try start(.on)
        let local = ProxyTestBytes.v2(command: 0x20, family: 0x00, source: [], destination: [], ports: nil)
        XCTAssertEqual(body(try exchange(httpPort, local + Array(request.utf8))), "127.0.0.1")
    }

    func testATrustedProxyWithoutAHeaderIsClosedWhenOneIsRequired() throws {
        try start(.on)
        XCTAssertEqual(try exchange(httpPort, Array(request.utf8)), [], "closed without an answer")
        XCTAssertTrue(try metrics().contains("biqli_proxy_protocol_refused_total{reason=\"missing\"} 1"))
    }

    func testOptionalLetsATrustedProxyConnectWithOrWithoutAHeader() throws {
        try start(.optional)
        XCTAssertEqual(body(try exchange(httpPort, Array(request.utf8))), "127.0.0.1")
        let v1 = "PROXY TCP6 2001:db8::5 ::1 1 2\r\n"
        XCTAssertEqual(body(try exchange(httpPort, Array((v1 + request).utf8))), "2001:db8::5")
    }

    func testAVisitorWhoConnectsDirectlyIsServedButItsHeaderIsRefused() throws {
        try start(.on)
        XCTAssertEqual(body(try exchange(httpPort, Array(request.utf8), from: "127.0.0.2")), "127.0.0.2")
        let forged = Array(("PROXY TCP4 203.0.113.9 127.0.0.1 1 80\r\n" + request).utf8)
        XCTAssertEqual(try exchange(httpPort, forged, from: "127.0.0.2"), [])
        let text = try metrics()
        XCTAssertTrue(text.contains("biqli_proxy_protocol_refused_total{reason=\"untrusted\"} 1"), text)
        XCTAssertTrue(text.contains("biqli_proxy_protocol_headers_total{version=\"1\"} 0"), text)
    }

    func testAMalformedHeaderIsClosed() throws {
        try start(.on)
        XCTAssertEqual(try exchange(httpPort, Array(("PROXY TCP4 nowhere 127.0.0.1 1 2\r\n" + request).utf8)), [])
        XCTAssertTrue(try metrics().contains("biqli_proxy_protocol_refused_total{reason=\"malformed\"} 1"))
    }

    func testAHeaderThatStallsIsClosedAtTheHeadDeadline() throws {
        try start(.on, headMilliseconds: 300)
        let client = try TestSocket(port: httpPort)
        defer { client.close() }
        client.send(Array("PROXY TCP4 203.0.11".utf8))
        let started = Date()
        XCTAssertEqual(client.readToEnd(timeoutSeconds: 3), [], "closed without a 408")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        XCTAssertTrue(try metrics().contains("biqli_http_timeouts_total{phase=\"proxyHeader\"} 1"))
    }

    func testWithTheProtocolOffAHeaderIsJustABadRequest() throws {
        try start(.off)
        let answer = try exchange(httpPort, Array(("PROXY TCP4 203.0.113.9 127.0.0.1 1 80\r\n" + request).utf8))
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
    }

    // MARK: HTTPS: the header comes before the ClientHello

    func testOnTLSTheHeaderPrecedesTheHandshake() throws {
        try start(.on)
        let header = ProxyTestBytes.v2(source: [203, 0, 113, 50], destination: [127, 0, 0, 1], ports: (4000, 443))
        let client = try TestSocket(port: httpsPort)
        defer { client.close() }
        client.send(header)
        XCTAssertEqual(body(try client.tlsExchange(request)), "203.0.113.50")
        let v1Client = try TestSocket(port: httpsPort)
        defer { v1Client.close() }
        v1Client.send(Array("PROXY TCP4 203.0.113.51 127.0.0.1 4000 443\r\n".utf8))
        XCTAssertEqual(body(try v1Client.tlsExchange(request)), "203.0.113.51")
        let text = try metrics()
        XCTAssertTrue(text.contains("biqli_proxy_protocol_headers_total{version=\"2\"} 1"), text)
        XCTAssertTrue(text.contains("biqli_tls_handshakes_total{result=\"full\"} 2"), text)
    }

    func testOnTLSAVisitorHandshakesAsUsualAndItsHeaderIsRefused() throws {
        try start(.on)
        let direct = try TestSocket(port: httpsPort, from: "127.0.0.2")
        defer { direct.close() }
        XCTAssertEqual(body(try direct.tlsExchange(request)), "127.0.0.2")
        let forged = try TestSocket(port: httpsPort, from: "127.0.0.2")
        defer { forged.close() }
        forged.send(ProxyTestBytes.v2(source: [203, 0, 113, 9], destination: [127, 0, 0, 1], ports: (1, 443)))
        XCTAssertEqual(forged.readToEnd(), [], "closed before any handshake byte")
        XCTAssertTrue(try metrics().contains("biqli_proxy_protocol_refused_total{reason=\"untrusted\"} 1"))
    }

    func testOnTLSATrustedProxyWithoutAHeaderIsClosed() throws {
        try start(.on)
        let client = try TestSocket(port: httpsPort)
        defer { client.close() }
        XCTAssertThrowsError(try client.tlsExchange(request))
    }

    // MARK: Helpers

    func exchange(_ port: Int, _ bytes: [UInt8], from source: String? = nil) throws -> [UInt8] {
        let client = try TestSocket(port: port, from: source)
        defer { client.close() }
        client.send(bytes)
        return client.readToEnd()
    }

    func body(_ response: [UInt8]) -> String? {
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200"), let split = text.range(of: "\r\n\r\n") else { return nil }
        return String(text[split.upperBound...])
    }

    func metrics() throws -> String {
        let done = DispatchSemaphore(value: 0)
        let box = TextBox()
        server.metrics { snapshot in
            box.text = snapshot.prometheusText()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        return box.text
    }

    final class TextBox: @unchecked Sendable { var text = "" }
}

/// A blocking loopback client, optionally from another loopback source address.
final class TestSocket {
    let fd: Int32

    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSocketError.failed("socket") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw TestSocketError.failed("bind \(source)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestSocketError.failed("connect") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything until the server closes (a reset counts as a close), or the timeout.
    func readToEnd(timeoutSeconds: Int = 5) -> [UInt8] {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// A TLS handshake over this socket (after whatever was sent on it in the clear), one
    /// request, and the decrypted answer until the server closes.
    func tlsExchange(_ request: String) throws -> [UInt8] {
        let ctx = SSL_CTX_new(TLS_client_method())
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        defer { SSL_CTX_free(ctx) }
        let ssl = SSL_new(ctx)
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        guard SSL_connect(ssl) == 1 else { throw TestSocketError.failed("handshake") }
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ SSL_write(ssl, $0.baseAddress, Int32($0.count)) }) == Int32(bytes.count) else {
            throw TestSocketError.failed("write")
        }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n <= 0 { break }
            out += buffer[0..<Int(n)]
        }
        return out
    }

    func close() { Glibc.close(fd) }
}

enum TestSocketError: Error {
    case failed(String)
}
