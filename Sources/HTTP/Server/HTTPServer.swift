import CSystem
import Core
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The edge's HTTP/1.1 and HTTPS server: `configuration.loops` event-loop threads,
/// each with its own listeners on every configured address.
///
/// The handler comes with `start`, not `init`: the application's routes may need the
/// server itself (its bound addresses, its metrics), so they are built after it and
/// handed over, finished, when serving begins.
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    /// What `start` made; nil before.
    private let running = AtomicLazyReference<Running>()
    private let watcher = AtomicLazyReference<CertificateWatcher>()
    private let shutdownRequested = ShutdownFlag()
    private let certificateState: Mutex<CertificateSet>
    private let reloadLock = Mutex(())
    /// The certificates held in memory that every load adds to the directory's.
    private let suppliedState = Mutex<[SuppliedCertificate]>([])

    /// The serving server: each loop's mailbox (the loops themselves belong to their
    /// threads) and thread, and the addresses bound.
    private final class Running: Sendable {
        let mailboxes: [EventLoopMailbox]
        let threads: [OSThread]
        /// By listener kind, port 0 resolved.
        let boundAddresses: [(ListenerKind, HTTPServerConfiguration.Address)]

        init(
            mailboxes: [EventLoopMailbox], threads: [OSThread],
            boundAddresses: [(ListenerKind, HTTPServerConfiguration.Address)]
        ) {
            self.mailboxes = mailboxes
            self.threads = threads
            self.boundAddresses = boundAddresses
        }
    }

    /// The addresses actually bound (port 0 resolved), by listener kind; empty before `start`.
    public var boundAddresses: [(ListenerKind, HTTPServerConfiguration.Address)] {
        running.load()?.boundAddresses ?? []
    }

    /// Each loop's mailbox (empty before `start`).
    private var mailboxes: [EventLoopMailbox] { running.load()?.mailboxes ?? [] }

    public init(configuration: HTTPServerConfiguration) {
        self.configuration = configuration
        self.certificateState = Mutex(CertificateSet.load(directory: nil))
    }

    /// The certificates serving now.
    public var certificates: CertificateSet { certificateState.withLock { $0 } }

    /// Loads certificates, binds every listener on every loop and starts the loop threads,
    /// which answer every request with `handler`. Once.
    public func start(handler: any HTTPHandler) throws(HTTPServerError) {
        precondition(running.load() == nil, "HTTPServer.start called twice")
        signal(SIGPIPE, SIG_IGN)
        let certs = CertificateSet.load(
            directory: configuration.certificateDirectory, supplied: suppliedState.withLock { $0 },
            alpn: configuration.alpnCertificates)
        certificateState.withLock { $0 = certs }
        configuration.onCertificatesLoaded?(certs, false)

        var wanted: [(ListenerKind, HTTPServerConfiguration.Address)] = []
        if let a = configuration.httpAddress { wanted.append((.http, a)) }
        if let a = configuration.httpsAddress { wanted.append((.https, a)) }
        if let a = configuration.metricsAddress { wanted.append((.metrics, a)) }
        if let a = configuration.consoleAddress { wanted.append((.console, a)) }

        var perLoop: [[ListeningSocket]] = []
        for loopIndex in 0..<max(1, configuration.loops) {
            var sockets: [ListeningSocket] = []
            for (i, (kind, address)) in wanted.enumerated() {
                // Loops after the first join the port the first one got (port 0 in tests).
                let target = loopIndex == 0 ? address : perLoop[0][i].address
                do {
                    sockets.append(try ListeningSocket.open(target, kind: kind, backlog: configuration.backlog))
                } catch {
                    for s in perLoop.flatMap({ $0 }) + sockets { close(s.fd) }
                    throw error
                }
            }
            perLoop.append(sockets)
        }
        do {
            try ListeningSocket.verifyExclusive(perLoop.flatMap { $0 })
        } catch {
            for s in perLoop.flatMap({ $0 }) { close(s.fd) }
            throw error
        }
        let bound = perLoop.first.map { $0.map { ($0.kind, $0.address) } } ?? []

        // Each loop goes to its thread as soon as it is made, and only its mailbox stays here.
        // The threads wait at `gate` until every mailbox is published: a handler may post to
        // any loop from its first request on.
        let gate = Monitor(false)
        var mailboxes: [EventLoopMailbox] = []
        var threads: [OSThread] = []
        for (i, sockets) in perLoop.enumerated() {
            let loop: EventLoop
            do {
                loop = try EventLoop(
                    index: i, configuration: configuration, handler: handler, listeners: sockets, certificates: certs,
                    shutdownRequested: shutdownRequested)
            } catch {
                for s in perLoop[i...].flatMap({ $0 }) { close(s.fd) }
                for m in mailboxes { m.post { loop in loop.beginShutdown(graceMilliseconds: 0) } }
                Self.open(gate)
                for t in threads { t.join() }
                throw error
            }
            mailboxes.append(loop.mailbox)
            threads.append(
                OSThread.start(
                    name: "biqli-loop-\(i)",
                    taking: {
                        gate.withCondition { held in
                            while !held.state { held.wait() }
                        }
                        loop.run()
                    }))
        }
        _ = running.storeIfNil(Running(mailboxes: mailboxes, threads: threads, boundAddresses: bound))
        Self.open(gate)
        if let dir = configuration.certificateDirectory,
            let made = CertificateWatcher.start(
                directory: dir, onChange: { [weak self] in _ = self?.reloadCertificates() })
        {
            _ = watcher.storeIfNil(made)
        }
    }

    private static func open(_ gate: Monitor<Bool>) {
        gate.withLock { open in
            open = true
            gate.broadcast()
        }
    }

    public var loopCount: Int { mailboxes.count }

    /// Runs `work` on loop `index`'s thread (for work that must use that loop's resources,
    /// such as its store reader). Only after `start()`.
    public func post(toLoop index: Int, _ work: @escaping @Sendable () -> Void) {
        let mailboxes = self.mailboxes
        mailboxes[index % mailboxes.count].post(work)
    }

    /// Runs `work` on loop `index`'s thread with the loop (the tests read its state there).
    func post(toLoop index: Int, _ work: @escaping @Sendable (EventLoop) -> Void) {
        let mailboxes = self.mailboxes
        mailboxes[index % mailboxes.count].post(work)
    }

    /// Re-reads the certificate directory and hands the new set to every loop. Open
    /// connections keep the certificates they started with; new handshakes use the new set.
    @discardableResult
    public func reloadCertificates() -> CertificateSet {
        // One reload at a time (the watcher and SIGHUP may race): each builds on the last.
        let certs = reloadLock.withLock { _ in
            let certs = CertificateSet.load(
                directory: configuration.certificateDirectory, previous: certificates,
                supplied: suppliedState.withLock { $0 }, alpn: configuration.alpnCertificates)
            certificateState.withLock { $0 = certs }
            // Handed to the loops under the lock: each loop's mailbox runs in order, so the
            // set a loop ends with is the last one loaded. Posted after the lock, two
            // racing reloads (the directory's watcher and an ACME certificate) could hand
            // the older set over last and leave it serving until the next reload.
            for mailbox in mailboxes { mailbox.post { loop in loop.certificates = certs } }
            return certs
        }
        configuration.onCertificatesLoaded?(certs, true)
        return certs
    }

    /// Serves `certificates` beside the directory's from now on (each for its hostname,
    /// unless a directory certificate covers the name), in place of those supplied before:
    /// a reload, so that open connections keep what they started with.
    @discardableResult
    public func supply(_ certificates: [SuppliedCertificate]) -> CertificateSet {
        suppliedState.withLock { $0 = certificates }
        return reloadCertificates()
    }

    /// Graceful shutdown: stop accepting, finish in-flight requests, close idle
    /// connections, and close everything after the grace period. Returns at once.
    public func shutdown() {
        shutdownRequested.set()
        watcher.load()?.stop()
        let grace = configuration.shutdownGraceMilliseconds
        for mailbox in mailboxes { mailbox.post { loop in loop.beginShutdown(graceMilliseconds: grace) } }
    }

    /// Blocks until every loop has stopped.
    public func wait() {
        for t in running.load()?.threads ?? [] { t.join() }
        // `shutdown` stopped the watcher already; stopping twice is harmless, and so is
        // joining twice.
        if let watcher = watcher.load() {
            watcher.stop()
            watcher.join()
        }
    }

    /// Collects every loop's counters (each on its own thread) and calls `completion`
    /// on the last loop to answer.
    public func metrics(_ completion: @escaping @Sendable (MetricsSnapshot) -> Void) {
        let mailboxes = self.mailboxes
        let collector = MetricsCollector(expected: mailboxes.count, completion: completion)
        for mailbox in mailboxes {
            mailbox.post { loop in collector.add(.init(loop.metrics)) }
        }
    }
}

/// Gathers one snapshot per loop, then reports once.
private final class MetricsCollector: Sendable {
    private let state: Mutex<[MetricsSnapshot.LoopMetricsCopy]>
    private let expected: Int
    private let completion: @Sendable (MetricsSnapshot) -> Void

    init(expected: Int, completion: @escaping @Sendable (MetricsSnapshot) -> Void) {
        self.expected = expected
        self.completion = completion
        self.state = Mutex([])
    }

    func add(_ copy: MetricsSnapshot.LoopMetricsCopy) {
        let done: [MetricsSnapshot.LoopMetricsCopy]? = state.withLock { items in
            items.append(copy)
            return items.count == expected ? items : nil
        }
        if let done { completion(MetricsSnapshot(loops: done)) }
    }
}
