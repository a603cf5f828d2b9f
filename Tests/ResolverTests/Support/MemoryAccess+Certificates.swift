import Store

/// The resolver's tests keep no certificates: ACME's tables read empty here, and a write
/// to them fails (nothing in these tests makes one).
extension MemoryAccess {
    private static let unsupported = StoreError.backend(code: -1, message: "certificates are not in the memory store")

    func storedCertificates() throws(StoreError) -> [StoredCertificate] { [] }
    func storedCertificate(hostname: String) throws(StoreError) -> StoredCertificate? { nil }
    func acmeAccount(directoryURL: String) throws(StoreError) -> ACMEAccountRecord? { nil }
    func acmeChallenges() throws(StoreError) -> [ACMEChallengeRecord] { [] }
    func certificatesVersion() throws(StoreError) -> Int64 { 0 }
    func certificateOrders(hostname: String, limit: Int) throws(StoreError) -> [CertificateOrderRecord] { [] }

    func putStoredCertificate(_ certificate: StoredCertificate) throws(StoreError) { throw Self.unsupported }
    func deleteStoredCertificate(hostname: String) throws(StoreError) -> Bool { throw Self.unsupported }
    func claimCertificateOrder(hostname: String, node: String, until: Int64, now: Int64) throws(StoreError) -> Bool {
        throw Self.unsupported
    }
    func releaseCertificateOrder(hostname: String, node: String) throws(StoreError) { throw Self.unsupported }
    func insertACMEAccountIfAbsent(_ account: ACMEAccountRecord) throws(StoreError) -> ACMEAccountRecord {
        throw Self.unsupported
    }
    func setACMEAccountURL(directoryURL: String, accountURL: String?) throws(StoreError) { throw Self.unsupported }
    func putACMEChallenge(_ challenge: ACMEChallengeRecord) throws(StoreError) { throw Self.unsupported }
    func deleteACMEChallenge(token: String) throws(StoreError) { throw Self.unsupported }
    func deleteExpiredACMEChallenges(now: Int64) throws(StoreError) -> Int { throw Self.unsupported }
    func insertCertificateOrder(_ order: CertificateOrderRecord) throws(StoreError) { throw Self.unsupported }
    func pruneCertificateOrders(keep: Int) throws(StoreError) -> Int { throw Self.unsupported }
}
