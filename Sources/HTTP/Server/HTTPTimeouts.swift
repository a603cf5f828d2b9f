/// The connection deadlines of the server, in milliseconds.
public struct HTTPTimeouts: Sendable, Equatable {
    /// A whole request head must arrive within this time of its first byte, however
    /// slowly the bytes trickle in (slowloris).
    public var headMilliseconds: Int
    /// How long a kept-alive connection may sit between requests.
    public var idleMilliseconds: Int
    /// A request body must arrive within this time of its head.
    public var bodyMilliseconds: Int
    /// A client that reads none of a pending response for this long is dropped.
    public var writeMilliseconds: Int
    /// How long a TLS handshake may take.
    public var handshakeMilliseconds: Int
    /// After `Connection: close`, how long unread input is drained before closing
    /// (so that the client sees the response instead of a reset).
    public var lingerMilliseconds: Int

    public init(
        headMilliseconds: Int = 10_000, idleMilliseconds: Int = 60_000, bodyMilliseconds: Int = 30_000,
        writeMilliseconds: Int = 30_000, handshakeMilliseconds: Int = 10_000, lingerMilliseconds: Int = 2_000
    ) {
        self.headMilliseconds = headMilliseconds
        self.idleMilliseconds = idleMilliseconds
        self.bodyMilliseconds = bodyMilliseconds
        self.writeMilliseconds = writeMilliseconds
        self.handshakeMilliseconds = handshakeMilliseconds
        self.lingerMilliseconds = lingerMilliseconds
    }
}

/// What a connection is waiting for; each phase has its own deadline.
enum ConnectionPhase: Equatable {
    /// Accepted with the PROXY protocol on: no header yet from a trusted proxy, or no
    /// first byte yet from another peer. Its deadline is the head deadline from accept.
    case proxyHeader
    /// TLS handshake in progress.
    case handshake
    /// Accepted (and TLS established), no byte of a first request yet. Its deadline is
    /// the head deadline counted from accept: a connection that never speaks holds its
    /// slot for the head time, not the keep-alive idle time.
    case awaitingFirstRequest
    /// Between requests, nothing buffered.
    case idle
    /// Some bytes of a request head have arrived.
    case head
    /// The head is complete, the body is arriving.
    case body
    /// A handler is working; the client is not at fault, no deadline.
    case processing
    /// Output is pending and the socket is not writable.
    case writing
    /// Response sent with `Connection: close`; draining input before closing.
    case lingering
}

/// The deadline bookkeeping of one connection as a pure state machine.
///
/// The connection reports what happened (`enter`); the machine says when the
/// connection expires. Phases that start a clock keep it when re-entered (a
/// trickling head does not extend its own deadline); phases that measure
/// inactivity (`writing`) restart on progress via `progress(now:)`.
struct ConnectionDeadline: Equatable {
    private(set) var phase: ConnectionPhase
    /// Monotonic milliseconds; `nil` means no deadline.
    private(set) var expiresAt: UInt64?
    /// When the current phase began (monotonic milliseconds): the oldest idle
    /// connections are shed first at the connection limit.
    private(set) var since: UInt64
    /// When the connection was accepted.
    let acceptedAt: UInt64
    let timeouts: HTTPTimeouts

    init(timeouts: HTTPTimeouts, phase: ConnectionPhase, now: UInt64) {
        self.timeouts = timeouts
        self.phase = phase
        self.acceptedAt = now
        self.since = now
        self.expiresAt = nil
        self.expiresAt = deadline(for: phase, now: now)
    }

    private func deadline(for phase: ConnectionPhase, now: UInt64) -> UInt64? {
        switch phase {
        case .proxyHeader: return acceptedAt + UInt64(timeouts.headMilliseconds)
        case .handshake: return now + UInt64(timeouts.handshakeMilliseconds)
        case .awaitingFirstRequest: return acceptedAt + UInt64(timeouts.headMilliseconds)
        case .idle: return now + UInt64(timeouts.idleMilliseconds)
        case .head: return now + UInt64(timeouts.headMilliseconds)
        case .body: return now + UInt64(timeouts.bodyMilliseconds)
        case .processing: return nil
        case .writing: return now + UInt64(timeouts.writeMilliseconds)
        case .lingering: return now + UInt64(timeouts.lingerMilliseconds)
        }
    }

    /// Moves to `phase`. Re-entering the current phase keeps its deadline, and so does
    /// the first request's head: it counts from accept, like the wait before it (and
    /// like a PROXY header before it, on a plain listener).
    mutating func enter(_ phase: ConnectionPhase, now: UInt64) {
        guard phase != self.phase else { return }
        let firstHead = (self.phase == .awaitingFirstRequest || self.phase == .proxyHeader) && phase == .head
        self.phase = phase
        since = now
        if !firstHead { expiresAt = deadline(for: phase, now: now) }
    }

    /// The peer made progress in a phase that measures inactivity.
    mutating func progress(now: UInt64) {
        if phase == .writing { expiresAt = deadline(for: .writing, now: now) }
    }

    func isExpired(now: UInt64) -> Bool {
        guard let e = expiresAt else { return false }
        return now >= e
    }
}
