import Core
import HTTPMessages

/// HTTP/1.1 on one connection, apart from its socket: parsing what arrived, handing
/// each complete request to the handler, writing the answers in request order,
/// keep-alive, and when the connection is done. Nothing here reads, writes or
/// registers a socket (`EventLoop+IO.swift` does, and calls in here); the only output
/// is bytes appended to `conn.output` and the connection's HTTP/1.1 flags.
extension Connection {
    /// The request a handler is answering: what its answer and the access log need.
    struct PendingRequest {
        var method: HTTPMethod
        var host: String?
        var target: String
        var minorVersion: Int
        var keepAlive: Bool
        var startNanoseconds: UInt64
        var route: String
    }

    /// Every request read so far is answered and sent.
    var owesNothing: Bool { pending == nil && output.isEmpty }
}

extension EventLoop {
    /// Answers every complete request in the input, in order, until one is deferred,
    /// the output is above its high-water mark, or the connection is to close.
    func serveRequests(_ conn: Connection) {
        while conn.pending == nil && !conn.closeAfterFlush && !conn.input.isEmpty
            && conn.output.readableCount < configuration.outputHighWaterMark
        {
            let step = conn.parser.parse(conn.input.readable)
            switch step {
            case .needMore:
                if conn.parser.expectsContinue && !conn.sentContinue {
                    conn.output.append("HTTP/1.1 100 Continue\r\n\r\n")
                    conn.sentContinue = true
                }
                return
            case .error(let error):
                metrics.parseErrors[error.status, default: 0] += 1
                var response = HTTPResponse.text(error.status, HTTPStatus.reason(error.status).lowercased() + "\n")
                response.headers.add("Connection", "close")
                appendResponse(conn, response, head: false, minorVersion: 1, keepAlive: false)
                metrics.recordRequest(route: "rejected", status: error.status, nanoseconds: 0)
                conn.closeAfterFlush = true
                conn.input.consume(conn.input.readableCount)
                return
            case .request(let request, let consumed):
                conn.input.consume(consumed)
                conn.sentContinue = false
                dispatch(conn, request)
            }
        }
    }

    private func dispatch(_ conn: Connection, _ request: HTTPRequest) {
        let start = Clock.monotonicNanoseconds()
        let keepAlive = request.keepAlive && !isShuttingDown
        var context = RequestContext(
            loop: self, loopIndex: index, peerAddress: conn.peerAddress,
            proxyClientUnknown: conn.proxyClientUnknown, listener: conn.listener, serverName: conn.serverName,
            fd: conn.fd, generation: conn.generation)
        // A new request restarts the clocks: the idle deadline counts from its answer.
        conn.receivedRequest = true
        conn.deadline.enter(.processing, now: now)
        let result = handler.handle(request, &context)
        let meta = Connection.PendingRequest(
            method: request.method, host: accessLog.enabled ? request.headers["host"] : nil, target: request.target,
            minorVersion: request.minorVersion, keepAlive: keepAlive, startNanoseconds: start,
            route: context.routeName)
        switch result {
        case .response(let response):
            complete(conn, meta, response)
        case .deferred:
            conn.pending = meta
        }
    }

    private func complete(_ conn: Connection, _ meta: Connection.PendingRequest, _ response: HTTPResponse) {
        let keepAlive = meta.keepAlive && !isShuttingDown
        let head = meta.method == .head
        let bytes = appendResponse(conn, response, head: head, minorVersion: meta.minorVersion, keepAlive: keepAlive)
        if !keepAlive { conn.closeAfterFlush = true }
        let elapsed = Clock.monotonicNanoseconds() &- meta.startNanoseconds
        metrics.recordRequest(route: meta.route, status: response.status, nanoseconds: elapsed)
        if accessLog.enabled {
            let path: Substring
            if let q = meta.target.utf8.firstIndex(of: UInt8(ascii: "?")) {
                path = meta.target[..<q]
            } else {
                path = meta.target[...]
            }
            accessLog.append(
                .init(
                    method: meta.method.name, host: meta.host, path: path, status: response.status, bytes: bytes,
                    microseconds: elapsed / 1000, route: meta.route, tls: conn.listener == .https, loop: index),
                wallMilliseconds: Int64(Clock.nowMilliseconds()))
        }
    }

    /// A deferred response arrived (on this loop, through the mailbox): answer it, then
    /// the requests that waited behind it.
    func deliverDeferred(_ response: HTTPResponse, fd: Int32, generation: UInt32) {
        guard let conn = connection(fd), conn.generation == generation, let meta = conn.pending else { return }
        conn.pending = nil
        complete(conn, meta, response)
        serveRequests(conn)
        sendAnswers(conn)
    }

    /// Serializes a response into the connection's output; returns the body size.
    @discardableResult
    func appendResponse(
        _ conn: Connection, _ response: HTTPResponse, head: Bool, minorVersion: Int, keepAlive: Bool
    ) -> Int {
        ResponseSerializer.write(
            response, into: conn.output, date: httpDate(), omitBody: head, keepAlive: keepAlive,
            requestMinorVersion: minorVersion, hsts: conn.listener == .https ? configuration.hstsValue : nil)
        return response.body.count
    }

    /// What the connection does once all its output is sent.
    enum AfterOutput {
        /// Nothing more will be answered: close (lingering first).
        case finished
        /// Requests held back by backpressure were answered: send again.
        case answeredMore
        /// Wait for the peer or for a deferred answer.
        case waiting
    }

    /// All output is sent: the connection is done, or answers what backpressure held back.
    func outputSent(_ conn: Connection) -> AfterOutput {
        if conn.closeAfterFlush && conn.pending == nil { return .finished }
        if !conn.input.isEmpty && conn.pending == nil {
            serveRequests(conn)
            if !conn.output.isEmpty { return .answeredMore }
        }
        return .waiting
    }

    /// A slow request head or body ran out of time: answers 408 and marks the connection
    /// to close, when the client can still read an answer. Returns whether it did.
    func answerRequestTimeout(_ conn: Connection) -> Bool {
        let phase = conn.deadline.phase
        guard phase == .head || phase == .body, conn.handshakeComplete, conn.output.isEmpty else { return false }
        var response = HTTPResponse.text(408, "request timeout\n")
        response.headers.add("Connection", "close")
        appendResponse(conn, response, head: false, minorVersion: 1, keepAlive: false)
        conn.closeAfterFlush = true
        conn.parser.reset()
        conn.input.consume(conn.input.readableCount)
        return true
    }

    /// Shutdown began: a connection between requests closes once its output is sent;
    /// one in the middle of a request answers it first (`Connection: close`, since the
    /// loop is shutting down).
    func stopKeepingAlive(_ conn: Connection) {
        conn.closeAfterFlush = conn.closeAfterFlush || conn.pending == nil && !conn.parser.hasPartialRequest
    }
}
