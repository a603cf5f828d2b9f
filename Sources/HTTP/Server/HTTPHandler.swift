import Core
import HTTPMessages

/// What the server calls for every request.
///
/// `handle` runs on the connection's loop thread and must not block. It either
/// answers at once (`.response`) or returns `.deferred` after taking a
/// `Responder` from the context, which any thread may complete later (a write
/// waiting for its group commit, for example). While a response is deferred, the
/// connection answers nothing after it, so pipelined answers keep their order.
public protocol HTTPHandler: AnyObject, Sendable {
    func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult
}

public enum HTTPHandlerResult: Sendable {
    case response(HTTPResponse)
    /// The handler called `context.deferResponse()` and will complete that responder.
    case deferred
}

/// Which listener a request arrived on.
public enum ListenerKind: Sendable, Equatable {
    case http
    case https
    /// The operator's separate metrics listener.
    case metrics
    /// The operator console's listener (plain HTTP; the edge serves only `/console/` there).
    case console
}

/// Facts about a request that are not in the request itself.
public struct RequestContext {
    /// The index of the event loop serving the connection (0..<loops): selects per-loop resources.
    public let loopIndex: Int
    /// Peer address as text (`203.0.113.9`, `2001:db8::1`); IPv4-mapped IPv6 is shown as IPv4.
    /// Behind a trusted proxy that sends a PROXY header, the client's address it names.
    public let peerAddress: String
    /// A trusted balancer's PROXY header named no client (`UNKNOWN`, v2 `LOCAL`,
    /// `AF_UNSPEC`, `AF_UNIX`), so `peerAddress` is the balancer's: nothing that depends on
    /// who the client is may be decided from it.
    public let proxyClientUnknown: Bool
    public let listener: ListenerKind
    /// The TLS server name the client asked for, if any.
    public let serverName: String?
    /// A label for metrics and the access log, one per route; set by the router.
    public var routeName: String = "unmatched"
    /// The request's id (`X-Biq-Request-Id`: the caller's or one made for it), once a route
    /// group's middleware set it; every line of `logger` carries it.
    public var requestId: String?
    /// Who the request acts as, once a route group's authentication middleware knows.
    public var identity: (any RequestIdentity)?

    let loop: EventLoop
    let connectionFD: Int32
    let connectionGeneration: UInt32
    var responder: Responder?

    init(
        loop: EventLoop, loopIndex: Int, peerAddress: String, proxyClientUnknown: Bool = false,
        listener: ListenerKind, serverName: String?, fd: Int32, generation: UInt32
    ) {
        self.loop = loop
        self.loopIndex = loopIndex
        self.peerAddress = peerAddress
        self.proxyClientUnknown = proxyClientUnknown
        self.listener = listener
        self.serverName = serverName
        self.connectionFD = fd
        self.connectionGeneration = generation
    }

    public var isTLS: Bool { listener == .https }

    /// The server's logger for this request's work: its lines name the route and, once
    /// known, the request's id. Made when asked (on a failure, mostly), never per request.
    public var logger: Logger {
        var logger = loop.configuration.logger.with("route", .string(routeName))
        if let requestId { logger = logger.with(requestId: requestId) }
        return logger
    }

    /// Returns the responder for this request; the handler then returns `.deferred`.
    public mutating func deferResponse() -> Responder {
        if let r = responder { return r }
        let r = Responder(mailbox: loop.mailbox, fd: connectionFD, generation: connectionGeneration)
        responder = r
        return r
    }

    /// Runs `work` on this request's loop thread (later, never inline).
    public func onLoop(_ work: @escaping @Sendable () -> Void) {
        loop.mailbox.post(work)
    }
}

/// Completes one deferred response, from any thread, exactly once.
public final class Responder: Sendable {
    private let mailbox: EventLoopMailbox?
    private let fd: Int32
    private let generation: UInt32
    /// Instead of a connection: where a request run in process (`InProcessRequest`) gets its answer.
    private let deliver: (@Sendable (HTTPResponse) -> Void)?

    init(mailbox: EventLoopMailbox, fd: Int32, generation: UInt32) {
        self.mailbox = mailbox
        self.fd = fd
        self.generation = generation
        self.deliver = nil
    }

    init(deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.mailbox = nil
        self.fd = -1
        self.generation = 0
        self.deliver = deliver
    }

    /// Sends `response`. If the connection is gone by then, the response is dropped.
    public func respond(_ response: HTTPResponse) {
        guard let mailbox else {
            deliver?(response)
            return
        }
        let fd = self.fd
        let generation = self.generation
        mailbox.post { loop in loop.deliverDeferred(response, fd: fd, generation: generation) }
    }
}
