import COpenSSL
import CSystem
import Core

#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTP/1.1 client on OpenSSL, for the CA (ACME) and for webhooks: one
/// connection per request (`Connection: close`), the peer verified against a configured
/// bundle or the system's roots and by its name (or IP address), answers framed by
/// `Content-Length`, chunks or the end of the connection, one deadline for the whole
/// exchange (the connect included), no redirect ever followed (a 3xx is an answer like
/// any other). For webhooks (`Options`): plain `http://` when allowed, at most so much of
/// an answer read, and every address the host resolves to checked (`AddressRules`)
/// before connecting to those very addresses, never to a second resolution, so that DNS
/// rebinding between the check and the connect is not possible. Runs on the certificate
/// manager's and the delivery threads, never on an event loop.
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

    /// What a request may do beyond an ACME one.
    public struct Options: Sendable {
        /// `http://` URLs too.
        public var allowHTTP = false
        /// Every address the host resolves to must be public (`AddressRules`).
        public var publicAddressesOnly = false
        /// Read at most this much of the answer's body; the rest is not read (the answer
        /// keeps its status and what was read). Nil: the parser's limit, whole bodies only.
        public var maxBodyBytes: Int?

        public init(allowHTTP: Bool = false, publicAddressesOnly: Bool = false, maxBodyBytes: Int? = nil) {
            self.allowHTTP = allowHTTP
            self.publicAddressesOnly = publicAddressesOnly
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// Sends one request on a new connection (`Connection: close`) and reads its whole
    /// answer within `timeoutMilliseconds`.
    public func send(
        _ method: String, _ urlText: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeoutMilliseconds: Int = 30_000, options: Options = Options()
    ) throws(NetworkError) -> HTTPSResponse {
        guard let url = HTTPSURL(urlText, allowHTTP: options.allowHTTP) else { throw .badURL(urlText) }
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(timeoutMilliseconds) * 1_000_000
        let connection = try open(url, deadline: deadline, options: options)
        defer { connection.close() }
        var stale = false
        return try exchange(
            connection, method, url, headers, body, deadline, options, keepAlive: false, stale: &stale
        ).response
    }

    /// A connection to one origin, its addresses checked when it was made.
    final class Connection {
        let origin: String
        let fd: Int32
        let ssl: OpaquePointer?
        var lastUsed = Clock.monotonicNanoseconds()

        init(origin: String, fd: Int32, ssl: OpaquePointer?) {
            self.origin = origin
            self.fd = fd
            self.ssl = ssl
        }

        func close() {
            if let ssl { SSL_free(ssl) }
            Glibc.close(fd)
        }
    }

    /// A new connection to `url`'s origin (TLS handshake included), within `deadline`.
    func open(_ url: HTTPSURL, deadline: UInt64, options: Options) throws(NetworkError) -> Connection {
        let fd = try connect(url, deadline: deadline, publicOnly: options.publicAddressesOnly)
        guard url.isTLS else { return Connection(origin: url.origin, fd: fd, ssl: nil) }
        guard let made = SSL_new(context) else {
            Glibc.close(fd)
            throw .tls("SSL_new failed")
        }
        let connection = Connection(origin: url.origin, fd: fd, ssl: made)
        _ = SSL_set_fd(made, fd)
        if !url.isIPAddress { _ = csys_ssl_set_host_name(made, url.host) }
        _ = csys_ssl_verify_peer_name(made, url.host, url.isIPAddress ? 1 : 0)
        do {
            try setTimeout(fd, deadline)
        } catch {
            connection.close()
            throw error
        }
        ERR_clear_error()
        if SSL_connect(made) != 1 {
            let verify = SSL_get_verify_result(made)
            let reason =
                verify != X509_V_OK
                ? String(cString: X509_verify_cert_error_string(verify)) : Self.openSSLError()
            ERR_clear_error()
            connection.close()
            throw .tls("TLS handshake with \(url.hostHeader) failed: \(reason)")
        }
        return connection
    }

    /// One request and its answer on `connection`. `reusable`: the answer was framed (by
    /// length or chunks), whole, and the peer did not say it closes. `stale` is set when
    /// nothing of an answer came before the connection failed or ended: on a reused
    /// connection, the peer closed it while idle, and the request may go again on a new one.
    func exchange(
        _ c: Connection, _ method: String, _ url: HTTPSURL, _ headers: [(String, String)], _ body: [UInt8]?,
        _ deadline: UInt64, _ options: Options, keepAlive: Bool, stale: inout Bool
    ) throws(NetworkError) -> (response: HTTPSResponse, reusable: Bool) {
        var head = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nUser-Agent: \(userAgent)\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var out = Array(head.utf8)
        if let body { out += body }
        var sent = 0
        while sent < out.count {
            try setTimeout(c.fd, deadline)
            do {
                sent += try write(c.ssl, c.fd, out, from: sent, deadline, url)
            } catch {
                if case .timeout = error {} else { stale = true }
                throw error
            }
        }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            try setTimeout(c.fd, deadline)
            let n: Int
            do {
                n = try read(c.ssl, c.fd, &buffer, deadline, url)
            } catch {
                if received.isEmpty, case .timeout = error {} else if received.isEmpty { stale = true }
                throw error
            }
            let ended = n == 0
            if ended && received.isEmpty { stale = true }
            if n > 0 { received.append(contentsOf: buffer[0..<n]) }
            if let cap = options.maxBodyBytes, let cut = ResponseParser.truncated(received, maxBody: cap) {
                ERR_clear_error()
                return (cut, false)
            }
            let limit = options.maxBodyBytes == nil ? ResponseParser.maxBody : Int.max
            switch ResponseParser.parse(received, headOnly: method == "HEAD", ended: ended, limit: limit) {
            case .done(let response):
                ERR_clear_error()
                let closes = response.header("Connection")?.lowercased().contains("close") ?? false
                return (response, !ended && !closes && response.status >= 200)
            case .invalid(let reason): throw .protocolError("\(url.hostHeader): \(reason)")
            case .incomplete: if ended { throw .protocolError("\(url.hostHeader): incomplete response") }
            }
        }
    }

    /// Writes from `offset`; the count written.
    private func write(
        _ ssl: OpaquePointer?, _ fd: Int32, _ out: [UInt8], from offset: Int, _ deadline: UInt64, _ url: HTTPSURL
    ) throws(NetworkError) -> Int {
        if let ssl {
            ERR_clear_error()
            let n = out[offset...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { throw failure(ssl, n, deadline, "sending to \(url.hostHeader)") }
            return Int(n)
        }
        let n = out[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { throw plainFailure("sending to \(url.hostHeader)") }
        return n
    }

    /// Reads into `buffer`; 0 when the peer closed its side.
    private func read(
        _ ssl: OpaquePointer?, _ fd: Int32, _ buffer: inout [UInt8], _ deadline: UInt64, _ url: HTTPSURL
    ) throws(NetworkError) -> Int {
        if let ssl {
            ERR_clear_error()
            let n = SSL_read(ssl, &buffer, Int32(buffer.count))
            if n > 0 { return Int(n) }
            let error = SSL_get_error(ssl, n)
            guard error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0) else {
                throw failure(ssl, n, deadline, "reading from \(url.hostHeader)")
            }
            return 0
        }
        let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { throw plainFailure("reading from \(url.hostHeader)") }
        return n
    }

    private func plainFailure(_ what: String) -> NetworkError {
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { return .timeout("\(what): no answer in time") }
        return .connect("\(what) failed: " + String(cString: strerror(code)))
    }

    /// A connected blocking socket to one of the host's addresses, in the order the
    /// resolver gives them.
    /// With `publicOnly`, every address is checked first, and any that is not public
    /// refuses the whole request (a host that resolves to one private address among
    /// public ones is refused too: which one a connect would reach is not ours to pick).
    private func connect(_ url: HTTPSURL, deadline: UInt64, publicOnly: Bool) throws(NetworkError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(url.host, String(url.port), &hints, &list)
        guard rc == 0, let first = list else {
            throw .connect("cannot resolve \(url.host): " + String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(list) }
        if publicOnly {
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let e = entry {
                entry = e.pointee.ai_next
                let bytes = Self.addressBytes(e.pointee)
                if let reason = AddressRules.nonPublicReason(bytes) {
                    throw .refused("\(url.host) resolves to a non-public address (\(reason)); refused")
                }
            }
        }
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

    /// The address of a resolver entry, 4 or 16 bytes in network order.
    static func addressBytes(_ entry: addrinfo) -> [UInt8] {
        guard let address = entry.ai_addr else { return [] }
        if entry.ai_family == AF_INET {
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                withUnsafeBytes(of: p.pointee.sin_addr) { Array($0) }
            }
        }
        if entry.ai_family == AF_INET6 {
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                withUnsafeBytes(of: p.pointee.sin6_addr) { Array($0) }
            }
        }
        return []
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

/// Why a request got no answer.
public enum NetworkError: Error, Equatable, CustomStringConvertible {
    case badURL(String)
    /// Not attempted: the destination is not allowed (`AddressRules`).
    case refused(String)
    case connect(String)
    case tls(String)
    case timeout(String)
    case protocolError(String)

    public var description: String {
        switch self {
        case .badURL(let u): return "not an https URL: \(u)"
        case .refused(let m), .connect(let m), .tls(let m), .timeout(let m), .protocolError(let m): return m
        }
    }
}
