import CSystem
import Core
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One event-loop thread: its own epoll, its own `SO_REUSEPORT` listeners, and the
/// connections it accepted, which never leave it. Level-triggered.
///
/// Other threads talk to a loop only through its `mailbox` (`EventLoopMailbox`), drained
/// by the loop after an eventfd wake-up; nothing else is shared. So the loop is not
/// `Sendable`: `HTTPServer` hands each to its thread (`OSThread` takes it `sending`), and
/// the compiler checks that no other thread keeps a reference.
final class EventLoop {
    let index: Int
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let epollFD: Int32
    /// Work posted by other threads, and the eventfd that wakes the loop for it.
    let mailbox: EventLoopMailbox
    private var listeners: [ListeningSocket]
    private var listenersPaused = false
    /// Paused because every slot is taken (not for lack of descriptors): accepting
    /// resumes as soon as a slot frees, and is retried now and then meanwhile, since a
    /// busy connection may since have become idle and can be shed.
    private var pausedAtLimit = false
    private var acceptRetryAt: UInt64 = 0

    /// Connections by file descriptor.
    private var connections: [Connection?] = []
    private var connectionCount = 0
    private var nextGeneration: UInt32 = 1
    let maxConnections: Int

    private var wheel: TimerWheel
    /// TLS connections with decrypted or read-ahead input inside OpenSSL that no epoll
    /// event will announce; read after this pass's events.
    var tlsBuffered: [Connection] = []
    /// Monotonic milliseconds at the start of the current iteration.
    private(set) var now: UInt64
    private var dateCache = HTTPDateCache()
    var metrics = LoopMetrics()
    var accessLog: AccessLog
    var certificates: CertificateSet
    private var shuttingDown = false
    /// Set by `HTTPServer.shutdown` before it posts `beginShutdown` to every loop: a
    /// loop that answers a request before its own post runs (it was not scheduled in
    /// between, or the request's bytes came in the same wake-up) still answers with
    /// `Connection: close`, as the other loops already do.
    let shutdownRequested: ShutdownFlag
    private var hardDeadline: UInt64 = .max
    private var stopped = false

    static let wakeTag: UInt64 = 1 << 63
    static let listenerTag: UInt64 = 1 << 62

    init(
        index: Int, configuration: HTTPServerConfiguration, handler: any HTTPHandler, listeners: [ListeningSocket],
        certificates: CertificateSet, shutdownRequested: ShutdownFlag = ShutdownFlag()
    ) throws(HTTPServerError) {
        self.index = index
        self.shutdownRequested = shutdownRequested
        self.configuration = configuration
        self.handler = handler
        self.listeners = listeners
        self.certificates = certificates
        self.maxConnections = max(1, configuration.maxConnections / max(1, configuration.loops))
        self.accessLog = AccessLog(
            enabled: configuration.accessLog, node: configuration.nodeName,
            redactedPrefixes: configuration.accessLogRedactedPrefixes)
        let start = Clock.monotonicNanoseconds() / 1_000_000
        self.now = start
        self.wheel = TimerWheel(now: start)
        epollFD = csys_epoll_create()
        guard epollFD >= 0 else { throw .system("epoll_create1", errno) }
        do {
            mailbox = try EventLoopMailbox(index: index)
        } catch {
            close(epollFD)
            throw error
        }
        _ = csys_epoll_ctl(epollFD, EPOLL_CTL_ADD, mailbox.wakeFD, CSYS_EPOLLIN, EventLoop.wakeTag)
        registerListeners()
    }

    deinit {
        close(epollFD)
    }

    // MARK: Running

    func run() {
        LoopThread.bind(index)  // per-loop values check it in debug builds (`PerLoop`)
        var events = [UInt32](repeating: 0, count: 256)
        var data = [UInt64](repeating: 0, count: 256)
        while !stopped {
            var timeout = Int32(wheel.slotMilliseconds)
            if let posted = mailbox.takeOrSleep() {
                for item in posted {
                    switch item {
                    case .plain(let work): work()
                    case .onLoop(let work): work(self)
                    }
                }
                timeout = 0  // more may have arrived meanwhile: look again before sleeping
            }
            let announcedSleep = timeout != 0
            if !tlsBuffered.isEmpty { timeout = 0 }  // input waits inside OpenSSL
            let n = csys_epoll_wait(epollFD, &events, &data, 256, timeout)
            if announcedSleep { mailbox.awake() }
            now = Clock.monotonicNanoseconds() / 1_000_000
            if n < 0 && errno != EINTR { break }
            var i = 0
            while i < Int(max(n, 0)) {
                let tag = data[i]
                let ev = events[i]
                i += 1
                if tag == EventLoop.wakeTag {
                    mailbox.drainWake()  // the work itself runs at the top of the next pass
                } else if tag & EventLoop.listenerTag != 0 {
                    acceptConnections(listenerIndex: Int(tag & 0xFFFF))
                } else {
                    let fd = Int32(truncatingIfNeeded: tag & 0xFFFF_FFFF)
                    let generation = UInt32(truncatingIfNeeded: tag >> 32)
                    guard let conn = connection(fd), conn.generation == generation else { continue }
                    handleEvents(conn, ev)
                }
            }
            if !tlsBuffered.isEmpty { readTLSBuffered() }
            expireDeadlines()
            configuration.afterEachPass?(index)
            if listenersPaused && !shuttingDown
                && (now >= acceptRetryAt || pausedAtLimit && connectionCount < maxConnections)
            {
                resumeAccepting()
            }
            accessLog.flush()
            if shuttingDown && (connectionCount == 0 || now >= hardDeadline) {
                closeAllConnections()
                stopped = true
            }
        }
        accessLog.flush()
    }

    func connection(_ fd: Int32) -> Connection? {
        let i = Int(fd)
        return i < connections.count ? connections[i] : nil
    }

    /// The connection is still the one registered under its descriptor.
    @inline(__always)
    func isOpen(_ conn: Connection) -> Bool { connection(conn.fd) === conn }

    // MARK: Accepting

    private func registerListeners() {
        for (i, l) in listeners.enumerated() {
            _ = csys_epoll_ctl(epollFD, EPOLL_CTL_ADD, l.fd, CSYS_EPOLLIN, EventLoop.listenerTag | UInt64(i))
        }
        listenersPaused = false
    }

    private func pauseAccepting(retryAfterMilliseconds: UInt64, atLimit: Bool = false) {
        pausedAtLimit = atLimit
        if !listenersPaused {
            for l in listeners { _ = csys_epoll_ctl(epollFD, EPOLL_CTL_DEL, l.fd, 0, 0) }
            listenersPaused = true
            metrics.acceptPauses += 1
        }
        acceptRetryAt = now + retryAfterMilliseconds
    }

    private func resumeAccepting() {
        registerListeners()
    }

    private func acceptConnections(listenerIndex: Int) {
        guard listenerIndex < listeners.count else { return }
        let listener = listeners[listenerIndex]
        // Bounded, so one busy listener cannot starve the connections already open.
        for _ in 0..<64 {
            // At the limit, a visitor waiting in the backlog takes the slot of the oldest
            // connection that waits for its client; without one waiting, nobody is shed.
            if connectionCount >= maxConnections
                && !(hasPendingConnection(listener.fd) && shedReusableConnections() > 0)
            {
                pauseAccepting(retryAfterMilliseconds: 100, atLimit: true)
                return
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    csys_accept4(listener.fd, $0, &length, CSYS_SOCK_NONBLOCK | CSYS_SOCK_CLOEXEC)
                }
            }
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: return
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop accepting for a moment instead of spinning or dying.
                    pauseAccepting(retryAfterMilliseconds: 100)
                    return
                default: return
                }
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let peer = addressText(&storage)
            var proxy: ProxyExpectation?
            if configuration.proxyProtocol != .off && (listener.kind == .http || listener.kind == .https) {
                let trusted = IPAddress(&storage).map { a in configuration.trustedProxies.contains { $0.contains(a) } }
                proxy = ProxyExpectation(mode: configuration.proxyProtocol, trusted: trusted ?? false)
            }
            var tls: TLSSession?
            if listener.kind == .https {
                guard let session = TLSSession(fd: fd, certificates: certificates) else {
                    close(fd)  // no certificate loaded: refuse TLS rather than serve a broken handshake
                    metrics.handshakesFailed += 1
                    continue
                }
                tls = session
            }
            nextGeneration = nextGeneration == UInt32.max ? 1 : nextGeneration + 1
            let conn = Connection(
                fd: fd, generation: nextGeneration, listener: listener.kind, peerAddress: peer,
                limits: configuration.limits, timeouts: configuration.timeouts, now: now, tls: tls, proxy: proxy)
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
            }
            connections[Int(fd)] = conn
            connectionCount += 1
            metrics.openConnections += 1
            metrics.acceptedConnections += 1
            setInterest(conn, CSYS_EPOLLIN | CSYS_EPOLLRDHUP, add: true)
            schedule(conn)
        }
    }

    // MARK: Interest and deadlines

    func setInterest(_ conn: Connection, _ events: UInt32, add: Bool = false) {
        guard add || events != conn.interest else { return }
        conn.interest = events
        let tag = UInt64(conn.generation) << 32 | UInt64(UInt32(bitPattern: conn.fd))
        _ = csys_epoll_ctl(epollFD, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, conn.fd, events, tag)
    }

    /// Re-derives the connection's phase and files its deadline if it moved earlier.
    func schedule(_ conn: Connection) {
        conn.deadline.enter(conn.currentPhase, now: now)
        guard let expiry = conn.deadline.expiresAt else { return }
        if expiry < conn.scheduledDeadline {
            conn.scheduledDeadline = expiry
            wheel.schedule(.init(fd: conn.fd, generation: conn.generation, deadline: expiry))
        }
    }

    private func expireDeadlines() {
        let due = wheel.advance(now: now)
        for entry in due {
            guard let conn = connection(entry.fd), conn.generation == entry.generation,
                entry.deadline == conn.scheduledDeadline
            else { continue }
            conn.scheduledDeadline = .max
            if conn.deadline.isExpired(now: now) {
                timedOut(conn)
            } else if let expiry = conn.deadline.expiresAt {
                conn.scheduledDeadline = expiry
                wheel.schedule(.init(fd: conn.fd, generation: conn.generation, deadline: expiry))
            }
        }
    }

    private func timedOut(_ conn: Connection) {
        metrics.timeouts["\(conn.deadline.phase)", default: 0] += 1
        if answerRequestTimeout(conn) {
            // Tell a slow client why, then close; the response is best-effort.
            flush(conn)
            if connection(conn.fd) === conn && !conn.lingering { closeConnection(conn) }
            return
        }
        closeConnection(conn)
    }

    // MARK: Closing

    func closeConnection(_ conn: Connection) {
        guard connection(conn.fd) === conn else { return }
        // The session itself is freed with the connection object (it may still sit in
        // this pass's `tlsBuffered` list); OpenSSL does not close the descriptor.
        conn.tls?.sendCloseNotify()
        _ = csys_epoll_ctl(epollFD, EPOLL_CTL_DEL, conn.fd, 0, 0)
        close(conn.fd)
        connections[Int(conn.fd)] = nil
        connectionCount -= 1
        metrics.openConnections -= 1
    }

    /// At the connection limit: closes up to `shedBatch` of the connections that wait
    /// for a client that has not spoken (keep-alive between requests, accepted and
    /// silent), oldest first, so that a new visitor gets a slot instead of a full
    /// backlog. Returns how many were closed. Only runs at the limit; one scan makes
    /// room for a whole batch.
    private func shedReusableConnections() -> Int {
        var candidates: [(since: UInt64, conn: Connection)] = []
        for case let conn? in connections where conn.isReusable {
            candidates.append((conn.deadline.since, conn))
        }
        guard !candidates.isEmpty else { return 0 }
        candidates.sort { $0.since < $1.since }
        let shed = candidates.prefix(EventLoop.shedBatch)
        for (_, conn) in shed { closeConnection(conn) }
        metrics.shedConnections += UInt64(shed.count)
        return shed.count
    }

    /// A connection waits in the listener's accept queue (the socket polls readable).
    private func hasPendingConnection(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    /// Connections closed per shedding pass (nginx frees 32 at a time too).
    static let shedBatch = 32

    private func closeAllConnections() {
        for case let conn? in connections { closeConnection(conn) }
    }

    // MARK: Shutdown and reload (called on the loop thread via `post`)

    func beginShutdown(graceMilliseconds: Int) {
        guard !shuttingDown else { return }
        shuttingDown = true
        hardDeadline = now + UInt64(graceMilliseconds)
        for l in listeners {
            if !listenersPaused { _ = csys_epoll_ctl(epollFD, EPOLL_CTL_DEL, l.fd, 0, 0) }
            close(l.fd)
        }
        listeners.removeAll()
        listenersPaused = true
        for case let conn? in connections {
            if conn.isQuiescent {
                closeConnection(conn)
            } else {
                stopKeepingAlive(conn)
            }
        }
    }

    var isShuttingDown: Bool { shuttingDown || shutdownRequested.isSet }

    // MARK: Time helpers

    func httpDate() -> [UInt8] { dateCache.current() }
}

/// The server-wide "shutdown has begun", read by every loop as it answers.
final class ShutdownFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
