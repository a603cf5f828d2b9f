import Store

/// The certificate manager's ordering thread: its passes (`tick`) and the state only that
/// thread uses, owned by it (a value, never shared: the compiler keeps it so).
struct CertificateOrderer {
    let manager: CertificateManager
    var settings: ACMESettings { manager.settings }
    var account: (key: ECKey, url: String)?
    /// The challenge type of each hostname's last failed order: the next one tries another.
    var lastKind: [String: ACMEChallengeRecord.Kind] = [:]
    /// The CA could not be reached: no order before this (every hostname would fail alike).
    var unreachableUntil: Int64 = 0
    var unreachableFailures = 0
    /// The CA's renewal information could not be had: none asked before this.
    var renewalInfoPausedUntil: Int64 = 0
    var nextCleanup: Int64 = 0
    /// The domains as last read: a failed read (nil) is not "no domains".
    var knownDomains: [String]?
    var random = SystemRandomNumberGenerator()

    init(manager: CertificateManager) { self.manager = manager }

    func now() -> Int64 { manager.now() }
    var isStopped: Bool { manager.sleeper.isStopped }

    /// One pass: the writes the store refused before, then every wanted hostname's due
    /// order, then its renewal information. A failure ends the pass; the next one tries again.
    mutating func tick() {
        cleanUp()
        guard writeUnsaved(), let wanted = wantedHostnames() else { return }
        let time = now()
        let known = manager.shared.withLock { $0.rows }
        var due: [(at: Int64, hostname: String)] = []
        for host in wanted {
            let at = settings.policy.due(known[host], now: time, random: &random)
            if at <= time { due.append((at, host)) }
        }
        for (_, host) in due.sorted(by: { ($0.at, $0.hostname) < ($1.at, $1.hostname) }) {
            guard !isStopped, now() >= unreachableUntil else { break }
            let row = manager.shared.withLock { $0.rows[host] }
            if let row, let until = row.leaseUntil, until > now(), row.leaseNode != settings.node {
                continue  // another node is ordering it
            }
            guard attempt(host) else { return }  // the store is away: so it is for every host
            manager.refresh(force: true)
        }
        for host in wanted.sorted() where !isStopped {
            guard checkRenewalInformation(host) else { break }
        }
    }

    /// The configured hostnames less those an operator's certificate covers; the last
    /// known ones when they cannot be read now (nil before they ever could).
    mutating func wantedHostnames() -> Set<String>? {
        if let read = manager.hooks.domains() { knownDomains = read }
        guard let domains = knownDomains else { return nil }
        return Set(domains.map { $0.lowercased() }).filter { !manager.hooks.directoryCovers($0) }
    }

    /// Expired challenges and old attempts leave the store, now and then.
    private mutating func cleanUp() {
        let time = now()
        guard time >= nextCleanup else { return }
        nextCleanup = time + 3_600_000
        do {
            _ = try manager.store.writeAndWait { tx in
                _ = try tx.deleteExpiredACMEChallenges(now: time)
                return try tx.pruneCertificateOrders(keep: 20)
            }
        } catch {
            nextCleanup = time + 60_000
            manager.reportStoreFailure(error)
        }
    }
}
