import Model
import Store

/// The resolver's tests keep no certificates: ACME's tables are not kept here, and every
/// read or write of them fails (`MemoryAccess.notKept`) rather than answer what the real
/// stores would not.
extension MemoryAccess {
    func storedCertificates() throws(StoreError) -> [StoredCertificate] { throw Self.notKept("certificates") }
    func storedCertificate(hostname: String) throws(StoreError) -> StoredCertificate? {
        throw Self.notKept("certificates")
    }
    func acmeAccount(directoryURL: String) throws(StoreError) -> ACMEAccountRecord? {
        throw Self.notKept("certificates")
    }
    func acmeChallenges() throws(StoreError) -> [ACMEChallengeRecord] { throw Self.notKept("certificates") }
    func certificatesVersion() throws(StoreError) -> Int64 { throw Self.notKept("certificates") }
    func certificateOrders(hostname: String, limit: Int) throws(StoreError) -> [CertificateOrderRecord] {
        throw Self.notKept("certificates")
    }

    func putStoredCertificate(_ certificate: StoredCertificate) throws(StoreError) {
        throw Self.notKept("certificates")
    }
    func deleteStoredCertificate(hostname: String) throws(StoreError) -> Bool { throw Self.notKept("certificates") }
    func claimCertificateOrder(hostname: String, node: String, until: Int64, now: Int64) throws(StoreError) -> Bool {
        throw Self.notKept("certificates")
    }
    func releaseCertificateOrder(hostname: String, node: String) throws(StoreError) {
        throw Self.notKept("certificates")
    }
    func insertACMEAccountIfAbsent(_ account: ACMEAccountRecord) throws(StoreError) -> ACMEAccountRecord {
        throw Self.notKept("certificates")
    }
    func setACMEAccountURL(directoryURL: String, accountURL: String?) throws(StoreError) {
        throw Self.notKept("certificates")
    }
    func putACMEChallenge(_ challenge: ACMEChallengeRecord) throws(StoreError) { throw Self.notKept("certificates") }
    func deleteACMEChallenge(token: String) throws(StoreError) { throw Self.notKept("certificates") }
    func deleteExpiredACMEChallenges(now: Int64) throws(StoreError) -> Int { throw Self.notKept("certificates") }
    func insertCertificateOrder(_ order: CertificateOrderRecord) throws(StoreError) {
        throw Self.notKept("certificates")
    }
    func pruneCertificateOrders(keep: Int) throws(StoreError) -> Int { throw Self.notKept("certificates") }
}
