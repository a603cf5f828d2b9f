import CSystem
import Core
import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

extension EventLoop {
    /// Largest unparsed input kept per connection: everything one request may occupy
    /// before the parser answers (chunk framing and trailers included) plus slack for the
    /// start of a pipelined next request. Past it, reading pauses.
    var inputCap: Int { configuration.limits.maxBufferedBytes + 16 * 1024 }

    func handleEvents(_ conn: Connection, _ events: UInt32) {
        if events & (CSYS_EPOLLERR | CSYS_EPOLLHUP) != 0 && events & CSYS_EPOLLIN == 0 {
            closeConnection(conn)
            return
        }
        if events & CSYS_EPOLLOUT != 0 {
            if conn.tlsWantsWrite {
                conn.tlsWantsWrite = false
                onReadable(conn)
            } else {
                flush(conn)
            }
            guard isOpen(conn) else { return }
        }
        if events & (CSYS_EPOLLIN | CSYS_EPOLLRDHUP | CSYS_EPOLLHUP) != 0 {
            onReadable(conn)
        }
    }

    // MARK: Reading

    private func onReadable(_ conn: Connection) {
        if conn.tls != nil && !conn.handshakeComplete {
            guard continueHandshake(conn) else { return }
        }
        let status = readAvailable(conn)
        if conn.lingering {
            conn.input.consume(conn.input.readableCount)
            if status != .open { closeConnection(conn) }
            return
        }
        if status == .failed {
            closeConnection(conn)
            return
        }
        if status == .eof { conn.peerClosed = true }
        processInput(conn)
        guard isOpen(conn) else { return }
        flush(conn)
        guard isOpen(conn) else { return }
        if conn.peerClosed && conn.pending == nil && conn.output.isEmpty {
            // EOF with nothing owed: a half-sent request gets no answer.
            closeConnection(conn)
            return
        }
        updateReadInterest(conn)
        schedule(conn)
    }

    enum ReadStatus { case open, eof, failed }

    /// Reads until the socket would block (TLS: until `WANT_READ`, or decrypted bytes
    /// would sit unseen under level-triggered epoll) or the input cap is reached.
    private func readAvailable(_ conn: Connection) -> ReadStatus {
        let cap = inputCap
        conn.tlsStoppedAtCap = false
        while conn.input.readableCount < cap {
            conn.input.reserve(16 * 1024)
            let room = min(conn.input.writableCount, cap - conn.input.readableCount + 1)
            if let tls = conn.tls {
                switch tls.read(into: conn.input.writableStart, count: room) {
                case .bytes(let n):
                    conn.input.didWrite(n)
                    continue
                case .wantRead: return .open
                case .wantWrite:
                    conn.tlsWantsWrite = true
                    setInterest(conn, conn.interest | CSYS_EPOLLOUT)
                    return .open
                case .closed: return .eof
                case .failed:
                    // Requests already read are still answered; nothing more is read.
                    return conn.input.isEmpty ? .failed : .eof
                }
            } else {
                let n = recv(conn.fd, conn.input.writableStart, room, 0)
                if n > 0 {
                    conn.input.didWrite(n)
                    if n < room { return .open }  // drained the socket; skip the EAGAIN round trip
                    continue
                }
                if n == 0 { return .eof }
                switch errno {
                case EAGAIN, EWOULDBLOCK: return .open
                case EINTR: continue
                default: return .failed
                }
            }
        }
        conn.tlsStoppedAtCap = conn.tls != nil
        return .open
    }

    /// Drives the TLS handshake; true once it is complete.
    private func continueHandshake(_ conn: Connection) -> Bool {
        guard let tls = conn.tls else { return true }
        switch tls.handshake() {
        case .complete(let resumed):
            if resumed {
                metrics.handshakesResumed += 1
            } else {
                metrics.handshakesFull += 1
            }
            conn.serverName = tls.serverName
            schedule(conn)
            return true
        case .wantRead:
            setInterest(conn, CSYS_EPOLLIN | CSYS_EPOLLRDHUP)
        case .wantWrite:
            conn.tlsWantsWrite = true
            setInterest(conn, CSYS_EPOLLIN | CSYS_EPOLLRDHUP | CSYS_EPOLLOUT)
        case .failed:
            metrics.handshakesFailed += 1
            closeConnection(conn)
        }
        return false
    }

    func updateReadInterest(_ conn: Connection) {
        var events: UInt32 = 0
        // Backpressure: stop reading while too much output waits or the input is full.
        let reading =
            !conn.peerClosed && conn.output.readableCount < configuration.outputHighWaterMark
            && conn.input.readableCount < inputCap
        if reading || conn.lingering { events |= CSYS_EPOLLIN | CSYS_EPOLLRDHUP }
        if !conn.output.isEmpty || conn.tlsWantsWrite { events |= CSYS_EPOLLOUT }
        setInterest(conn, events)
        if reading, conn.tlsStoppedAtCap, !conn.tlsBufferedQueued, let tls = conn.tls, tls.hasBufferedInput {
            // Reading stopped at the input cap with bytes left inside OpenSSL: the socket
            // may be empty, so no epoll event would come. (A read that stopped at
            // WANT_READ needs socket bytes, which epoll does announce.)
            conn.tlsBufferedQueued = true
            tlsBuffered.append(conn)
        }
    }

    /// Reads the connections whose input waits inside OpenSSL; see `updateReadInterest`.
    func readTLSBuffered() {
        let queued = tlsBuffered
        tlsBuffered.removeAll(keepingCapacity: true)
        for conn in queued {
            conn.tlsBufferedQueued = false
            guard isOpen(conn), !conn.lingering, conn.interest & CSYS_EPOLLIN != 0 else { continue }
            onReadable(conn)
        }
    }

    // MARK: Requests

    /// Answers every complete request in the input, in order, until one is deferred.
    func processInput(_ conn: Connection) {
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
            loop: self, loopIndex: index, peerAddress: conn.peerAddress, listener: conn.listener,
            serverName: conn.serverName, fd: conn.fd, generation: conn.generation)
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

    /// A deferred response arrived (on this loop, through the mailbox).
    func deliverDeferred(_ response: HTTPResponse, fd: Int32, generation: UInt32) {
        guard let conn = connection(fd), conn.generation == generation, let meta = conn.pending else { return }
        conn.pending = nil
        complete(conn, meta, response)
        processInput(conn)
        flush(conn)
        guard isOpen(conn) else { return }
        if conn.peerClosed && conn.pending == nil && conn.output.isEmpty {
            closeConnection(conn)
            return
        }
        updateReadInterest(conn)
        schedule(conn)
    }

    // MARK: Writing

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

    /// Writes as much pending output as the socket takes; closes or lingers when done
    /// and the connection was marked to close.
    func flush(_ conn: Connection) {
        while !conn.output.isEmpty {
            let chunk = conn.output.readable
            if let tls = conn.tls {
                switch tls.write(from: chunk.baseAddress!, count: chunk.count) {
                case .bytes(let n):
                    conn.output.consume(n)
                    conn.deadline.progress(now: now)
                    continue
                case .wantWrite:
                    setInterest(conn, conn.interest | CSYS_EPOLLOUT)
                    schedule(conn)
                    return
                case .wantRead:
                    setInterest(conn, conn.interest | CSYS_EPOLLIN)
                    return
                case .closed, .failed:
                    closeConnection(conn)
                    return
                }
            } else {
                let n = send(conn.fd, chunk.baseAddress, chunk.count, CSYS_MSG_NOSIGNAL)
                if n > 0 {
                    conn.output.consume(n)
                    conn.deadline.progress(now: now)
                    continue
                }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    setInterest(conn, conn.interest | CSYS_EPOLLOUT)
                    schedule(conn)
                    return
                }
                if n < 0 && errno == EINTR { continue }
                closeConnection(conn)
                return
            }
        }
        conn.output.shrinkIfEmpty(to: 4096)
        if conn.closeAfterFlush && conn.pending == nil {
            beginLinger(conn)
            return
        }
        // Requests held back by backpressure run now that the output has drained.
        if !conn.input.isEmpty && conn.pending == nil {
            processInput(conn)
            if isOpen(conn) && !conn.output.isEmpty {
                flush(conn)
                return
            }
        }
        if conn.interest & CSYS_EPOLLOUT != 0 || conn.interest & CSYS_EPOLLIN == 0 {
            updateReadInterest(conn)
            schedule(conn)
        }
    }

    /// Half-closes after the last response and drains input briefly, so that the
    /// peer reads the response instead of a reset caused by its unread bytes.
    private func beginLinger(_ conn: Connection) {
        if conn.peerClosed {
            closeConnection(conn)
            return
        }
        conn.tls?.sendCloseNotify()
        shutdown(conn.fd, Int32(SHUT_WR))
        conn.lingering = true
        conn.input.consume(conn.input.readableCount)
        setInterest(conn, CSYS_EPOLLIN | CSYS_EPOLLRDHUP)
        schedule(conn)
    }
}
