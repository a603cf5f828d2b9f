/// The reads of ACME's tables: certificates, accounts and challenges (decision 0017).
/// Part of every `StoreReader`, so that `check` and the loops can read them; the
/// certificate manager reads them inside write bodies (on the writer's connection).
public protocol CertificateReading: AnyObject {
    /// Every stored certificate row, by hostname.
    func storedCertificates() throws(StoreError) -> [StoredCertificate]
    func storedCertificate(hostname: String) throws(StoreError) -> StoredCertificate?
    func acmeAccount(directoryURL: String) throws(StoreError) -> ACMEAccountRecord?
    func acmeChallenges() throws(StoreError) -> [ACMEChallengeRecord]
    /// Changes with every write to the certificates or challenges (by any process): the
    /// rows read are current while it stays equal.
    func certificatesVersion() throws(StoreError) -> Int64
    /// The newest order attempts of `hostname`, newest first.
    func certificateOrders(hostname: String, limit: Int) throws(StoreError) -> [CertificateOrderRecord]
}

/// The writes of ACME's tables, inside a write body. Each one moves `certificatesVersion`.
public protocol CertificateWriting: CertificateReading {
    /// Inserts or replaces the row of `certificate.hostname`.
    func putStoredCertificate(_ certificate: StoredCertificate) throws(StoreError)
    func deleteStoredCertificate(hostname: String) throws(StoreError) -> Bool
    /// Claims the right to order `hostname` for `node` until `until`, making its row
    /// (`pending`) when there is none: true when no other node holds an unexpired claim.
    /// Two nodes claiming at once: one wins (the row is the lock).
    func claimCertificateOrder(hostname: String, node: String, until: Int64, now: Int64) throws(StoreError) -> Bool
    /// Gives the claim up (when `node` holds it).
    func releaseCertificateOrder(hostname: String, node: String) throws(StoreError)
    /// Stores `account` unless the directory has one already; returns the one stored (so
    /// that nodes making their first account at once agree on one key).
    func insertACMEAccountIfAbsent(_ account: ACMEAccountRecord) throws(StoreError) -> ACMEAccountRecord
    func setACMEAccountURL(directoryURL: String, accountURL: String?) throws(StoreError)
    func putACMEChallenge(_ challenge: ACMEChallengeRecord) throws(StoreError)
    func deleteACMEChallenge(token: String) throws(StoreError)
    /// Deletes challenges expired at `now`; returns how many.
    func deleteExpiredACMEChallenges(now: Int64) throws(StoreError) -> Int
    func insertCertificateOrder(_ order: CertificateOrderRecord) throws(StoreError)
    /// Keeps the newest `keep` attempts of each hostname.
    func pruneCertificateOrders(keep: Int) throws(StoreError) -> Int
}
