import CSystem
import Core

#if canImport(Glibc)
import Glibc
#endif

/// The socket side of a connection: epoll events, reading (through TLS or not),
/// writing, interest, half-close. What the bytes mean is `EventLoop+HTTP1.swift`'s.
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
            if let tls = conn.tls, tls.readWantsWrite {
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
        if let expectation = conn.proxyExpectation {
            guard takeProxyHeader(conn, expectation) else { return }
        }
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
        serveRequests(conn)
        sendAnswers(conn)
    }

    /// Sends what the protocol has written, closes a connection whose peer has left once
    /// nothing more is owed to it, and re-arms its epoll interest and deadline.
    func sendAnswers(_ conn: Connection) {
        flush(conn)
        guard isOpen(conn) else { return }
        if conn.peerClosed && conn.owesNothing {
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
                    // The session remembers (`readWantsWrite`): writability resumes the read.
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
            schedule(conn)
            return true
        case .wantRead:
            setInterest(conn, CSYS_EPOLLIN | CSYS_EPOLLRDHUP)
        case .wantWrite:
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
        if !conn.output.isEmpty || conn.tls?.readWantsWrite == true { events |= CSYS_EPOLLOUT }
        setInterest(conn, events)
        if reading, let tls = conn.tls, !conn.tlsBufferedQueued, tls.hasUnannouncedInput {
            // The socket may be empty, so no epoll event would come: read it after this pass.
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

    // MARK: Writing

    /// Writes as much pending output as the socket takes; once it is all sent, the
    /// protocol says whether the connection is done (then it lingers) or has more to say.
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
        switch outputSent(conn) {
        case .finished:
            beginLinger(conn)
            return
        case .answeredMore:
            flush(conn)
            return
        case .waiting:
            break
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
