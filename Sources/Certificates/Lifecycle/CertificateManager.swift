import Core
import Outbound
import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The certificate lifecycle of one node (decision 0017), on a thread of its own:
///
/// - every second it looks at the configured domains (`hooks.domains`) and orders a
///   certificate for each one that has none, or whose renewal time has come, unless an
///   operator's certificate covers it (`hooks.directoryCovers`);
/// - one order per hostname at a time across a fleet: a node orders only after claiming
///   the hostname's row in the store (`claimCertificateOrder`);
/// - a second thread checks the store for changes every second (`certificatesVersion`),
///   serves what it holds (`hooks.serve`), whichever node ordered it, and answers the
///   fleet's challenges, also while the first one waits on the CA;
/// - a failure is recorded in the hostname's row (the CA's problem, the next attempt
///   after a growing backoff) and reported once (`hooks.event`);
/// - no failure stops it or drops a certificate: a store out of reach leaves the rows as
///   last known (and served), an outcome the store refused is kept and written later,
///   a failed read of the domains is not "no domains", and the next tick tries again.
///
/// The thread blocks on the CA and the store; nothing here runs on an event loop.
public final class CertificateManager: Sendable {
    public let settings: ACMESettings
    /// HTTP-01 answers, read by the plain-HTTP listener's route.
    public let board = ChallengeBoard()
    let store: any Store
    let hooks: CertificateManagerHooks
    let client: ACMEClient
    let now: @Sendable () -> Int64
    let sleeper = Sleeper()
    /// The state both threads use; the ordering thread's own is `CertificateOrderer`'s.
    let shared = Mutex<SharedCertificateState>(SharedCertificateState())
    /// The versions last handed to `hooks.serve`; its lock also keeps the hand-overs in order.
    let served = Mutex<[String: String]>([:])
    let storeFailing = Atomic<Bool>(false)
    private let threads = Mutex<(ordering: OSThread?, sync: OSThread?)>((nil, nil))
    private let finished = Atomic<Bool>(false)
    private let syncFinished = Atomic<Bool>(false)

    /// The rows as the last poll found them, without keys: for the API, `check`, `/metrics`.
    let snapshot = Mutex<[String: ManagedCertificate]>([:])
    /// Order outcomes since start: `issued`, `failed`, `rate_limited`.
    private let outcomes = Mutex<[String: Int]>([:])

    public init(
        settings: ACMESettings, store: any Store, hooks: CertificateManagerHooks,
        now: @escaping @Sendable () -> Int64 = { Int64(Clock.nowMilliseconds()) }
    ) throws(NetworkError) {
        self.settings = settings
        self.store = store
        self.hooks = hooks
        self.now = now
        let http = try HTTPSClient(rootsFile: settings.rootsFile, userAgent: settings.userAgent)
        self.client = ACMEClient(directoryURL: settings.directoryURL, http: http, now: now)
    }

    public func start() {
        // Whatever is stored serves at once, before any order.
        refresh(force: true)
        let sync = OSThread(name: "biqli-acme-sync") { [self] in
            while sleeper.sleep(milliseconds: settings.storePollMilliseconds) { refresh(force: false) }
            syncFinished.store(true, ordering: .releasing)
        }
        let ordering = OSThread(name: "biqli-acme") { [self] in run() }
        threads.withLock { $0 = (ordering, sync) }
    }

    /// Ends the thread: an order under way gives up at its next wait. Waits for it up to
    /// `waitMilliseconds`; a request to the CA that is still blocked then ends by itself
    /// (its timeout) on a detached thread, which the store, closed by then, refuses.
    public func stop(waitMilliseconds: Int = 3_000) {
        sleeper.stop()
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(waitMilliseconds) * 1_000_000
        let (ordering, sync) = threads.withLock { t in
            defer { t = (nil, nil) }
            return t
        }
        for (index, t) in [ordering, sync].enumerated() {
            guard let t else { continue }
            func done() -> Bool {
                index == 0 ? finished.load(ordering: .acquiring) : syncFinished.load(ordering: .acquiring)
            }
            while !done() && Clock.monotonicNanoseconds() < deadline { usleep(10_000) }
            if done() { t.join() } else { t.detach() }
        }
    }

    /// The ACME state of `hostname` as last read from the store.
    public func state(of hostname: String) -> ManagedCertificate? { snapshot.withLock { $0[hostname] } }

    /// Order outcomes since start, by result.
    public var orderOutcomes: [String: Int] { outcomes.withLock { $0 } }

    /// Requests sent again after the CA's `badNonce`.
    public var badNonceRetries: Int { client.badNonceRetries.load(ordering: .relaxed) }

    func count(_ result: String) { outcomes.withLock { $0[result, default: 0] += 1 } }

    /// The ordering thread: its state lives in the `CertificateOrderer` it owns.
    private func run() {
        var orderer = CertificateOrderer(manager: self)
        while !sleeper.isStopped {
            orderer.tick()
            guard sleeper.sleep(milliseconds: settings.domainsPollMilliseconds) else { break }
        }
        for challenge in shared.withLock({ Array($0.ownChallenges.values) }) { withdraw(challenge) }
        finished.store(true, ordering: .releasing)
    }

    func reportStoreFailure(_ error: StoreError) {
        guard !storeFailing.exchange(true, ordering: .relaxed) else { return }
        hooks.event(.storeFailed("\(error)"))
    }
}
