import COpenSSL
import CSystem
import Core

#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTPS/1.1 client for talking to the CA, on OpenSSL: one connection
/// per request (`Connection: close`; an order makes a dozen requests, minutes apart at
/// worst), the peer verified against `BIQLI_EDGE_ACME_CA_ROOTS` or the system's roots
/// and by its name (or IP address), answers framed by `Content-Length`, chunks or the
/// end of the connection, and one deadline for the whole exchange. Runs on the
/// certificate manager's thread, never on an event loop.
// @unchecked: it wraps an OpenSSL SSL_CTX, set up in `init` and after only read (SSL_new), safe from any thread.
public final class HTTPSClient: @unchecked Sendable {
    private let context: OpaquePointer
    public let userAgent: String

    /// `rootsFile`: PEM file of the CAs to trust (a private ACME CA); nil: the system's.
    public init(rootsFile: String?, userAgent: String) throws(NetworkError) {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw .tls("SSL_CTX_new failed") }
        _ = csys_ssl_ctx_set_min_proto_tls12(ctx)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        let loaded: Int32
        if let rootsFile {
            loaded = SSL_CTX_load_verify_locations(ctx, rootsFile, nil)
        } else {
            loaded = SSL_CTX_set_default_verify_paths(ctx)
        }
        guard loaded == 1 else {
            ERR_clear_error()
            SSL_CTX_free(ctx)
            throw .tls("cannot load the trusted roots" + (rootsFile.map { " from " + $0 } ?? ""))
        }
        self.context = ctx
        self.userAgent = userAgent
    }

    deinit { SSL_CTX_free(context) }

    /// Sends one request and reads its whole answer within `timeoutMilliseconds`.
    public func send(
        _ method: String, _ urlText: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeoutMilliseconds: Int = 30_000
    ) throws(NetworkError) -> HTTPSResponse {
        guard let url = HTTPSURL(urlText) else { throw .badURL(urlText) }
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(timeoutMilliseconds) * 1_000_000
        let fd = try connect(url, deadline: deadline)
        defer { close(fd) }
        guard let ssl = SSL_new(context) else { throw .tls("SSL_new failed") }
        defer { SSL_free(ssl) }
        _ = SSL_set_fd(ssl, fd)
        if !url.isIPAddress { _ = csys_ssl_set_host_name(ssl, url.host) }
        _ = csys_ssl_verify_peer_name(ssl, url.host, url.isIPAddress ? 1 : 0)
        try setTimeout(fd, deadline)
        ERR_clear_error()
        if SSL_connect(ssl) != 1 {
            let verify = SSL_get_verify_result(ssl)
            let reason =
                verify != X509_V_OK
                ? String(cString: X509_verify_cert_error_string(verify)) : Self.openSSLError()
            ERR_clear_error()
            throw .tls("TLS handshake with \(url.hostHeader) failed: \(reason)")
        }

        var head = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nUser-Agent: \(userAgent)\r\n"
        head += "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var out = Array(head.utf8)
        if let body { out += body }
        var sent = 0
        while sent < out.count {
            try setTimeout(fd, deadline)
            ERR_clear_error()
            let n = out[sent...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { throw failure(ssl, n, deadline, "sending to \(url.hostHeader)") }
            sent += Int(n)
        }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            try setTimeout(fd, deadline)
            ERR_clear_error()
            let n = SSL_read(ssl, &buffer, Int32(buffer.count))
            var ended = false
            if n > 0 {
                received.append(contentsOf: buffer[0..<Int(n)])
            } else {
                let error = SSL_get_error(ssl, n)
                guard error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0) else {
                    throw failure(ssl, n, deadline, "reading from \(url.hostHeader)")
                }
                ended = true
            }
            switch ResponseParser.parse(received, headOnly: method == "HEAD", ended: ended) {
            case .done(let response):
                ERR_clear_error()
                return response
            case .invalid(let reason): throw .protocolError("\(url.hostHeader): \(reason)")
            case .incomplete: if ended { throw .protocolError("\(url.hostHeader): incomplete response") }
            }
        }
    }

    /// A connected blocking socket to one of the host's addresses, in the order the
    /// resolver gives them.
    private func connect(_ url: HTTPSURL, deadline: UInt64) throws(NetworkError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(url.host, String(url.port), &hints, &list)
        guard rc == 0, let first = list else {
            throw .connect("cannot resolve \(url.host): " + String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let e = entry {
            entry = e.pointee.ai_next
            let fd = socket(e.pointee.ai_family, e.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var ok = Glibc.connect(fd, e.pointee.ai_addr, e.pointee.ai_addrlen) == 0
            if !ok && errno == EINPROGRESS {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let remaining = Self.remainingMilliseconds(deadline)
                if remaining > 0, poll(&p, 1, Int32(min(remaining, 10_000))) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    ok = error == 0
                    if !ok { lastError = String(cString: strerror(error)) }
                } else {
                    lastError = "connection timed out"
                }
            } else if !ok {
                lastError = String(cString: strerror(errno))
            }
            if ok {
                _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
                return fd
            }
            close(fd)
        }
        throw .connect("cannot connect to \(url.hostHeader): \(lastError)")
    }

    private static func remainingMilliseconds(_ deadline: UInt64) -> Int {
        let now = Clock.monotonicNanoseconds()
        return now >= deadline ? 0 : Int((deadline - now) / 1_000_000)
    }

    /// Blocking calls on `fd` give up when the deadline passes.
    private func setTimeout(_ fd: Int32, _ deadline: UInt64) throws(NetworkError) {
        let ms = Self.remainingMilliseconds(deadline)
        guard ms > 0 else { throw .timeout("no answer in time") }
        var tv = timeval(tv_sec: ms / 1_000, tv_usec: (ms % 1_000) * 1_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    private func failure(_ ssl: OpaquePointer, _ rc: Int32, _ deadline: UInt64, _ what: String) -> NetworkError {
        let code = errno
        let error = SSL_get_error(ssl, rc)
        defer { ERR_clear_error() }
        if error == SSL_ERROR_SYSCALL && (code == EAGAIN || code == EWOULDBLOCK) {
            return .timeout("\(what): no answer in time")
        }
        let detail = Self.openSSLError()
        return .tls(
            "\(what) failed"
                + (detail.isEmpty ? (code != 0 ? ": " + String(cString: strerror(code)) : "") : ": " + detail))
    }

    static func openSSLError() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buf = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buf, buf.count)
            parts.append(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return parts.joined(separator: "; ")
    }
}

/// Why a request to the CA got no answer.
public enum NetworkError: Error, Equatable, CustomStringConvertible {
    case badURL(String)
    case connect(String)
    case tls(String)
    case timeout(String)
    case protocolError(String)

    public var description: String {
        switch self {
        case .badURL(let u): return "not an https URL: \(u)"
        case .connect(let m), .tls(let m), .timeout(let m), .protocolError(let m): return m
        }
    }
}
