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
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    /// Internal for the tests, which read a loop's state on its thread.
    private(set) var loops: [EventLoop] = []
    private let shutdownRequested = ShutdownFlag()
    private var threads: [OSThread] = []
    private let certificateState: Mutex<CertificateSet>
    private var watcher: CertificateWatcher?
    private let reloadLock = Mutex(())
    /// The certificates held in memory that every load adds to the directory's.
    private let suppliedState = Mutex<[SuppliedCertificate]>([])
    /// The addresses actually bound (port 0 resolved), by listener kind.
    public private(set) var boundAddresses: [(ListenerKind, HTTPServerConfiguration.Address)] = []

    public init(configuration: HTTPServerConfiguration) {
        self.configuration = configuration
        self.certificateState = Mutex(CertificateSet.load(directory: nil))
    }

    /// The certificates serving now.
    public var certificates: CertificateSet { certificateState.withLock { $0 } }

    /// Loads certificates, binds every listener on every loop and starts the loop threads,
    /// which answer every request with `handler`.
    public func start(handler: any HTTPHandler) throws(HTTPServerError) {
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
        boundAddresses = perLoop.first.map { $0.map { ($0.kind, $0.address) } } ?? []

        for (i, sockets) in perLoop.enumerated() {
            loops.append(
                try EventLoop(
                    index: i, configuration: configuration, handler: handler, listeners: sockets, certificates: certs,
                    shutdownRequested: shutdownRequested))
        }
        for loop in loops {
            threads.append(OSThread(name: "biqli-loop-\(loop.index)") { loop.run() })
        }
        if let dir = configuration.certificateDirectory {
            watcher = CertificateWatcher.start(directory: dir) { [weak self] in _ = self?.reloadCertificates() }
        }
    }

    public var loopCount: Int { loops.count }

    /// Runs `work` on loop `index`'s thread (for work that must use that loop's resources,
    /// such as its store reader). Only after `start()`.
    public func post(toLoop index: Int, _ work: @escaping @Sendable () -> Void) {
        loops[index % loops.count].post(work)
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
            for loop in loops { loop.post { loop.certificates = certs } }
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
        watcher?.stop()
        let grace = configuration.shutdownGraceMilliseconds
        for loop in loops { loop.post { loop.beginShutdown(graceMilliseconds: grace) } }
    }

    /// Blocks until every loop has stopped.
    public func wait() {
        for t in threads { t.join() }
        threads.removeAll()
        // `shutdown` stopped the watcher already; stopping twice is harmless.
        watcher?.stop()
        watcher?.join()
        watcher = nil
    }

    /// Collects every loop's counters (each on its own thread) and calls `completion`
    /// on the last loop to answer.
    public func metrics(_ completion: @escaping @Sendable (MetricsSnapshot) -> Void) {
        let collector = MetricsCollector(expected: loops.count, completion: completion)
        for loop in loops {
            loop.post { collector.add(.init(loop.metrics)) }
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
