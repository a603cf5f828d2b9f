/// The state of one accepted socket. Owned by exactly one loop and touched only
/// on that loop's thread.
///
/// The socket side (descriptor, TLS session, buffers, epoll interest, deadlines) is
/// driven by `EventLoop+IO.swift`; the HTTP/1.1 side (parser, the request being
/// answered, keep-alive) by `EventLoop+HTTP1.swift`.
final class Connection {
    // MARK: Socket

    let fd: Int32
    let generation: UInt32
    let listener: ListenerKind
    /// The client's address: the peer's, or the one a trusted proxy's PROXY header names.
    var peerAddress: String
    /// A trusted balancer's PROXY header came without a client address (`UNKNOWN`, v2
    /// `LOCAL`, `AF_UNSPEC`, `AF_UNIX`): `peerAddress` is then the balancer's own.
    var proxyClientUnknown = false
    /// The PROXY protocol step still to run before any byte reaches TLS or HTTP; nil
    /// once it has run, and always with the protocol off (`EventLoop+Proxy.swift`).
    var proxyExpectation: ProxyExpectation?

    /// TLS session, nil on plain listeners.
    let tls: TLSSession?

    let input: ByteBuffer
    let output: ByteBuffer
    var deadline: ConnectionDeadline
    /// The deadline this connection is filed under in the loop's timer wheel.
    var scheduledDeadline: UInt64 = .max
    /// The peer finished sending (EOF).
    var peerClosed = false
    /// Output was flushed and the write side shut; draining input until EOF or the linger deadline.
    var lingering = false
    /// Epoll interest currently registered.
    var interest: UInt32 = 0
    /// Queued in the loop's `tlsBuffered` list (input waits inside OpenSSL).
    var tlsBufferedQueued = false

    // MARK: HTTP/1.1

    var parser: HTTPRequestParser
    /// A handler is preparing the response to `pending`; nothing after it is answered yet.
    var pending: PendingRequest?
    /// Close once the output is flushed (Connection: close, HTTP/1.0, parse error, shutdown).
    var closeAfterFlush = false
    var sentContinue = false
    /// A complete request head has been read on this connection.
    var receivedRequest = false

    init(
        fd: Int32, generation: UInt32, listener: ListenerKind, peerAddress: String, limits: HTTPLimits,
        timeouts: HTTPTimeouts, now: UInt64, tls: TLSSession?, proxy: ProxyExpectation? = nil
    ) {
        self.fd = fd
        self.generation = generation
        self.listener = listener
        self.peerAddress = peerAddress
        self.proxyExpectation = proxy
        self.tls = tls
        self.input = ByteBuffer(capacity: 4096)
        self.output = ByteBuffer(capacity: 4096)
        self.parser = HTTPRequestParser(limits: limits)
        self.deadline = ConnectionDeadline(
            timeouts: timeouts, phase: proxy != nil ? .proxyHeader : tls != nil ? .handshake : .awaitingFirstRequest,
            now: now)
    }

    /// Plain connections are established at once; TLS ones once the handshake is done.
    var handshakeComplete: Bool { tls?.handshakeComplete ?? true }

    /// The TLS server name the client asked for, if any.
    var serverName: String? { tls?.serverName }

    /// The phase the connection is in, derived from its buffers and flags.
    var currentPhase: ConnectionPhase {
        if proxyExpectation != nil { return .proxyHeader }
        if !handshakeComplete { return .handshake }
        if lingering { return .lingering }
        if !output.isEmpty { return .writing }
        if pending != nil { return .processing }
        if parser.isReadingBody { return .body }
        if parser.hasPartialRequest || !input.isEmpty { return .head }
        return receivedRequest ? .idle : .awaitingFirstRequest
    }

    /// Waiting for a client that has not spoken since its last answer (or at all):
    /// closing it loses no request, so at the connection limit it makes room for a
    /// new client, oldest first (as nginx reuses its idle connections).
    var isReusable: Bool {
        if proxyExpectation != nil { return input.isEmpty }
        guard let tls, !tls.handshakeComplete else {
            return pending == nil && output.isEmpty && input.isEmpty && !parser.hasPartialRequest && !lingering
        }
        return !tls.handshakeStarted
    }

    /// Nothing in flight: safe to close during shutdown.
    var isQuiescent: Bool {
        handshakeComplete && pending == nil && output.isEmpty && input.isEmpty && !parser.hasPartialRequest
    }
}
