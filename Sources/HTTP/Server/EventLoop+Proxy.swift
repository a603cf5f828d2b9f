import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// The PROXY protocol step of a connection (decision 0015): before its first byte reaches
/// OpenSSL or the HTTP parser, the loop peeks at what arrived, lets `ProxyExpectation`
/// decide, and takes from the socket only bytes that belong to the header. So on an HTTPS
/// listener the ClientHello stays in the socket for OpenSSL, and on both the bytes that
/// follow are read as if the header had never been there. Bytes of a header that arrived
/// in part are taken into the connection's input buffer (the socket is then empty, so
/// level-triggered epoll stays quiet until the rest comes); the deadline is the head
/// deadline from accept (`ConnectionPhase.proxyHeader`).
extension EventLoop {
    /// Runs the step for a connection that has one pending; true when the connection may
    /// go on (header taken, or none), false when it waits for more bytes or was closed.
    func takeProxyHeader(_ conn: Connection, _ expectation: ProxyExpectation) -> Bool {
        let input = conn.input
        input.reserve(ProxyHeaderParser.maxLength)
        let consumed = input.readableCount
        let room = ProxyHeaderParser.maxLength - consumed
        var peeked = 0
        while true {
            peeked = recv(conn.fd, input.writableStart, room, CSYS_MSG_PEEK)
            if peeked >= 0 || errno != EINTR { break }
        }
        if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            closeConnection(conn)  // gone before a first byte (a balancer's TCP health check)
            return false
        }
        if peeked < 0 { return false }  // a spurious wake-up
        let seen = UnsafeRawBufferPointer(start: input.readable.baseAddress, count: consumed + peeked)
        switch expectation.decide(seen, consumed: consumed, tls: conn.tls != nil) {
        case .wait:
            _ = take(conn, peeked)
            return false
        case .accept(let header):
            guard take(conn, header.length - consumed) else { return false }
            input.consume(header.length)
            if let source = header.source {
                conn.peerAddress = source.description
            } else {
                conn.proxyClientUnknown = true
            }
            if header.version == .v1 {
                metrics.proxyHeadersV1 += 1
            } else {
                metrics.proxyHeadersV2 += 1
            }
        case .noHeader:
            break
        case .refuse(let reason):
            metrics.proxyRefused[reason.rawValue] += 1
            closeConnection(conn)
            return false
        }
        conn.proxyExpectation = nil
        schedule(conn)  // the handshake's or the first request's deadline now
        return true
    }

    /// Takes `count` bytes that a peek has just seen from the socket into the input
    /// buffer, where the peek put them already. False (and closed) if the socket fails.
    private func take(_ conn: Connection, _ count: Int) -> Bool {
        var taken = 0
        while taken < count {
            let n = recv(conn.fd, conn.input.writableStart, count - taken, 0)
            if n > 0 {
                conn.input.didWrite(n)
                taken += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                // Bytes seen a moment ago cannot be missing; a reset can make them so.
                closeConnection(conn)
                return false
            }
        }
        return true
    }
}
