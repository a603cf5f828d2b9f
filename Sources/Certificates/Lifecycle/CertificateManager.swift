import Core
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
///   after a growing backoff) and reported once (`hooks.event`).
///
/// The thread blocks on the CA and the store; nothing here runs on an event loop.
public final class CertificateManager: @unchecked Sendable {
    public let settings: ACMESettings
    /// HTTP-01 answers, read by the plain-HTTP listener's route.
    public let board = ChallengeBoard()
    let store: any Store
    let hooks: CertificateManagerHooks
    let client: ACMEClient
    let now: @Sendable () -> Int64
    let sleeper = Sleeper()
    private var thread: OSThread?
    private var syncThread: OSThread?
    private let finished = Atomic<Bool>(false)
    private let syncFinished = Atomic<Bool>(false)
    /// Guards the state below, which both threads use.
    let lock = Mutex<Void>(())

    // Shared by the ordering and the sync threads (under `lock`).
    var rows: [String: StoredCertificate] = [:]
    var chainVersions: [String: String] = [:]
    var lastVersion: Int64?
    var nextStorePoll: Int64 = 0
    var served: [String: String] = [:]
    var ownChallenges: [String: ACMEChallengeRecord] = [:]
    var remoteChallenges: [String: ACMEChallengeRecord] = [:]
    /// hostname -> the token whose TLS-ALPN-01 certificate is presented.
    var alpnPresented: [String: String] = [:]
    /// The challenge type each hostname's order published last.
    var lastPublished: [String: ACMEChallengeRecord.Kind] = [:]
    // The ordering thread's own.
    var account: (key: ECKey, url: String)?
    /// The challenge type of each hostname's last failed order: the next one tries another.
    var lastKind: [String: ACMEChallengeRecord.Kind] = [:]
    /// The CA could not be reached: no order before this (every hostname would fail alike).
    var unreachableUntil: Int64 = 0
    var unreachableFailures = 0
    var directoryRetryAt: Int64 = 0
    var nextCleanup: Int64 = 0
    let storeFailing = Atomic<Bool>(false)
    var random = SystemRandomNumberGenerator()

    /// The rows as the last poll found them, without keys: for the API, `check`, `/metrics`.
    private let snapshot = Mutex<[String: ManagedCertificate]>([:])
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
        syncThread = OSThread(name: "biqli-acme-sync") { [self] in
            while sleeper.sleep(milliseconds: settings.storePollMilliseconds) { refresh(force: false) }
            syncFinished.store(true, ordering: .releasing)
        }
        thread = OSThread(name: "biqli-acme") { [self] in run() }
    }

    /// Ends the thread: an order under way gives up at its next wait. Waits for it up to
    /// `waitMilliseconds`; a request to the CA that is still blocked then ends by itself
    /// (its timeout) on a detached thread, which the store, closed by then, refuses.
    public func stop(waitMilliseconds: Int = 3_000) {
        sleeper.stop()
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(waitMilliseconds) * 1_000_000
        for (index, t) in [thread, syncThread].enumerated() {
            guard let t else { continue }
            func done() -> Bool {
                index == 0 ? finished.load(ordering: .acquiring) : syncFinished.load(ordering: .acquiring)
            }
            while !done() && Clock.monotonicNanoseconds() < deadline { usleep(10_000) }
            if done() { t.join() } else { t.detach() }
        }
        thread = nil
        syncThread = nil
    }

    /// The ACME state of `hostname` as last read from the store.
    public func state(of hostname: String) -> ManagedCertificate? { snapshot.withLock { $0[hostname] } }

    /// Order outcomes since start, by result.
    public var orderOutcomes: [String: Int] { outcomes.withLock { $0 } }

    /// Requests sent again after the CA's `badNonce`.
    public var badNonceRetries: Int { client.badNonceRetries.load(ordering: .relaxed) }

    func count(_ result: String) { outcomes.withLock { $0[result, default: 0] += 1 } }

    private func run() {
        while !sleeper.isStopped {
            tick()
            guard sleeper.sleep(milliseconds: settings.domainsPollMilliseconds) else { break }
        }
        for challenge in lock.withLock({ _ in Array(ownChallenges.values) }) { withdraw(challenge) }
        finished.store(true, ordering: .releasing)
    }

    /// One pass of the ordering thread: every wanted hostname's due work.
    func tick() {
        cleanUp()
        guard let domains = hooks.domains() else { return }
        let wanted = Set(domains.map { $0.lowercased() }).filter { !hooks.directoryCovers($0) }
        let time = now()
        let known = lock.withLock { _ in rows }
        var due: [(at: Int64, hostname: String)] = []
        for host in wanted {
            let at = settings.policy.due(known[host], now: time, random: &random)
            if at <= time { due.append((at, host)) }
        }
        for (_, host) in due.sorted(by: { ($0.at, $0.hostname) < ($1.at, $1.hostname) }) {
            guard !sleeper.isStopped, now() >= unreachableUntil else { break }
            let row = lock.withLock { _ in rows[host] }
            if let row, let until = row.leaseUntil, until > now(), row.leaseNode != settings.node {
                continue  // another node is ordering it
            }
            attempt(host)
            refresh(force: true)
        }
        for host in wanted.sorted() where !sleeper.isStopped {
            checkRenewalInformation(host)
        }
    }

    /// Reads the store's rows when they changed (or when `force`d), keeps the snapshot,
    /// answers the fleet's challenges, and serves the stored certificates. Either thread.
    func refresh(force: Bool) {
        lock.withLock { _ in refreshLocked(force: force) }
    }

    private func refreshLocked(force: Bool) {
        let time = now()
        if force || time >= nextStorePoll {
            nextStorePoll = time + settings.storePollMilliseconds
            let known = force ? nil : lastVersion
            do {
                let (version, read) = try store.writeAndWait { tx in
                    let version = try tx.certificatesVersion()
                    if version == known { return (version, nil as ([StoredCertificate], [ACMEChallengeRecord])?) }
                    return (version, (try tx.storedCertificates(), try tx.acmeChallenges()))
                }
                storeFailing.store(false, ordering: .relaxed)
                lastVersion = version
                if let (certificates, challenges) = read {
                    rows = Dictionary(certificates.map { ($0.hostname, $0) }, uniquingKeysWith: { a, _ in a })
                    for (host, row) in rows {
                        chainVersions[host] = row.chainPEM.map { chain in
                            String(row.notAfter ?? 0) + "-" + String(SHA256.hex(SHA256.hash(chain)).prefix(16))
                        }
                    }
                    snapshot.withLock { $0 = rows.mapValues(ManagedCertificate.init) }
                    syncFleetChallenges(challenges)
                }
            } catch {
                reportStoreFailure(error)
            }
        }
        serveStored()
    }

    /// Hands the unexpired stored certificates to the server when the list changed.
    private func serveStored() {
        let time = now()
        var list: [ServedCertificate] = []
        var versions: [String: String] = [:]
        for (host, row) in rows {
            guard let chain = row.chainPEM, let key = row.keyPEM, let notAfter = row.notAfter, notAfter > time,
                let version = chainVersions[host]
            else { continue }
            let pem = Array((chain.hasSuffix("\n") ? chain : chain + "\n").utf8) + Array(key.utf8)
            list.append(ServedCertificate(hostname: host, pem: pem, version: version))
            versions[host] = version
        }
        guard versions != served else { return }
        served = versions
        hooks.serve(list.sorted { $0.hostname < $1.hostname })
    }

    /// Expired challenges and old attempts leave the store, now and then.
    private func cleanUp() {
        let time = now()
        guard time >= nextCleanup else { return }
        nextCleanup = time + 3_600_000
        do {
            _ = try store.writeAndWait { tx in
                _ = try tx.deleteExpiredACMEChallenges(now: time)
                return try tx.pruneCertificateOrders(keep: 20)
            }
        } catch {
            reportStoreFailure(error)
        }
    }

    func reportStoreFailure(_ error: StoreError) {
        guard !storeFailing.exchange(true, ordering: .relaxed) else { return }
        hooks.event(.storeFailed("\(error)"))
    }
}
