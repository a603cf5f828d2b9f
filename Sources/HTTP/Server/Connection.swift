import HTTPTypes

/// The state of one accepted socket. Owned by exactly one loop and touched only
/// on that loop's thread.
final class Connection {
    let fd: Int32
    let generation: UInt32
    let listener: ListenerKind
    let peerAddress: String

    /// TLS session, nil on plain listeners.
    let tls: TLSSession?
    var serverName: String?

    let input: ByteBuffer
    let output: ByteBuffer
    var parser: HTTPRequestParser
    var deadline: ConnectionDeadline
    /// The deadline this connection is filed under in the loop's timer wheel.
    var scheduledDeadline: UInt64 = .max

    /// A handler is preparing the response to `pending`; nothing after it is answered yet.
    var pending: PendingRequest?
    /// Close once the output is flushed (Connection: close, HTTP/1.0, parse error, shutdown).
    var closeAfterFlush = false
    /// The peer finished sending (EOF).
    var peerClosed = false
    /// Output was flushed and the write side shut; draining input until EOF or the linger deadline.
    var lingering = false
    var sentContinue = false
    /// A complete request head has been read on this connection.
    var receivedRequest = false
    /// Epoll interest currently registered.
    var interest: UInt32 = 0
    /// TLS needs the socket writable to make progress on a read (or the reverse).
    var tlsWantsWrite = false
    /// The last TLS read stopped at the input cap rather than at `WANT_READ`: OpenSSL
    /// may still hold input (read-ahead, or a record larger than the room left) that
    /// no epoll event will announce once the socket is empty.
    var tlsStoppedAtCap = false
    /// Queued in the loop's `tlsBuffered` list.
    var tlsBufferedQueued = false

    struct PendingRequest {
        var method: HTTPMethod
        var host: String?
        var target: String
        var minorVersion: Int
        var keepAlive: Bool
        var startNanoseconds: UInt64
        var route: String
    }

    init(
        fd: Int32, generation: UInt32, listener: ListenerKind, peerAddress: String, limits: HTTPLimits,
        timeouts: HTTPTimeouts, now: UInt64, tls: TLSSession?
    ) {
        self.fd = fd
        self.generation = generation
        self.listener = listener
        self.peerAddress = peerAddress
        self.tls = tls
        self.input = ByteBuffer(capacity: 4096)
        self.output = ByteBuffer(capacity: 4096)
        self.parser = HTTPRequestParser(limits: limits)
        self.deadline = ConnectionDeadline(
            timeouts: timeouts, phase: tls != nil ? .handshake : .awaitingFirstRequest, now: now)
    }

    /// Plain connections are established at once; TLS ones once the handshake is done.
    var handshakeComplete: Bool { tls?.handshakeComplete ?? true }

    /// The phase the connection is in, derived from its buffers and flags.
    var currentPhase: ConnectionPhase {
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
