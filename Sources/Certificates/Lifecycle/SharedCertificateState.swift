import Core
import Store

/// What the certificate manager's two threads (the ordering one and the store's sync)
/// both use, always inside `CertificateManager.shared`'s lock: the rows as last known,
/// the challenges this node answers, and the writes the store has not taken yet.
struct SharedCertificateState {
    /// The rows as last read (or as this node's unsaved writes make them): never emptied
    /// by a failed read, so what is served stays served while the store is away.
    private(set) var rows: [String: StoredCertificate] = [:]
    /// hostname -> a short digest of its chain and end: what the server is told changed.
    private(set) var chainVersions: [String: String] = [:]
    /// `certificatesVersion` of the rows applied last: an older read is not applied.
    var lastVersion: Int64?
    /// Counts this node's own changes of `rows`: a read that began before one is not
    /// applied over it (the next poll reads again).
    private(set) var localChanges = 0
    var nextStorePoll: Int64 = 0
    var ownChallenges: [String: ACMEChallengeRecord] = [:]
    var remoteChallenges: [String: ACMEChallengeRecord] = [:]
    /// hostname -> the token whose TLS-ALPN-01 certificate is presented.
    var alpnPresented: [String: String] = [:]
    /// The challenge type each hostname's order published last.
    var lastPublished: [String: ACMEChallengeRecord.Kind] = [:]
    /// Outcomes the store refused (unreachable), written again at each tick.
    private(set) var unsaved = UnsavedWrites()

    /// The rows read from the store, with this node's unsaved writes on top.
    mutating func replaceRows(_ read: [StoredCertificate]) {
        var fresh = Dictionary(read.map { ($0.hostname, $0) }, uniquingKeysWith: { a, _ in a })
        unsaved.overlay(&fresh)
        rows = fresh
        chainVersions = fresh.compactMapValues(Self.chainVersion)
    }

    mutating func setRow(_ row: StoredCertificate) {
        localChanges += 1
        rows[row.hostname] = row
        chainVersions[row.hostname] = Self.chainVersion(row)
    }

    /// Keeps `outcome` until the store takes it, and makes the row what it will be.
    mutating func keepUnsaved(_ outcome: OrderOutcome) {
        unsaved.outcomes[outcome.hostname] = outcome
        setRow(outcome.applied(to: rows[outcome.hostname]))
    }

    mutating func keepUnsaved(_ result: RenewalInformationResult) {
        unsaved.renewalInformation[result.hostname] = result
        if let row = rows[result.hostname] { setRow(result.applied(to: row)) }
    }

    /// The store took (or no longer needs) the unsaved write of `hostname`.
    mutating func forgetUnsavedOutcome(_ hostname: String) { unsaved.outcomes[hostname] = nil }
    mutating func forgetUnsavedRenewalInformation(_ hostname: String) { unsaved.renewalInformation[hostname] = nil }

    /// The unexpired certificates' versions by hostname: what should be served at `time`.
    func servableVersions(at time: Int64) -> [String: String] {
        var versions: [String: String] = [:]
        for (host, row) in rows {
            guard row.chainPEM != nil, row.keyPEM != nil, let notAfter = row.notAfter, notAfter > time,
                let version = chainVersions[host]
            else { continue }
            versions[host] = version
        }
        return versions
    }

    /// The certificates of `versions` (from `servableVersions`), chain then key, by hostname.
    func served(_ versions: [String: String]) -> [ServedCertificate] {
        var list: [ServedCertificate] = []
        for (host, version) in versions {
            guard let row = rows[host], let chain = row.chainPEM, let key = row.keyPEM else { continue }
            let pem = Array((chain.hasSuffix("\n") ? chain : chain + "\n").utf8) + Array(key.utf8)
            list.append(ServedCertificate(hostname: host, pem: pem, version: version))
        }
        return list.sorted { $0.hostname < $1.hostname }
    }

    private static func chainVersion(_ row: StoredCertificate) -> String? {
        row.chainPEM.map { chain in
            String(row.notAfter ?? 0) + "-" + String(SHA256.hex(SHA256.hash(chain)).prefix(16))
        }
    }
}
