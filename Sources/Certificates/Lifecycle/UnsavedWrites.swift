import Store

/// The CA's renewal information (RFC 9773) for one certificate, as it goes into its row.
struct RenewalInformationResult: Sendable {
    var hostname: String
    /// The certificate asked about: for any other (renewed since), the result is dropped.
    var chainPEM: String
    /// A time in the CA's window; nil: the row's stays (no usable answer).
    var renewalAt: Int64?
    /// When to ask again.
    var checkAt: Int64

    func applied(to row: StoredCertificate) -> StoredCertificate {
        guard row.chainPEM == chainPEM else { return row }
        var row = row
        if let renewalAt { row.renewalAt = renewalAt }
        row.renewalInfoCheckAt = checkAt
        return row
    }

    /// Writes it into the row when the row still holds that certificate. The row as stored.
    func write(_ tx: any CertificateWriting) throws -> StoredCertificate? {
        guard let current = try tx.storedCertificate(hostname: hostname), current.chainPEM == chainPEM else {
            return nil
        }
        let row = applied(to: current)
        try tx.putStoredCertificate(row)
        return row
    }
}

/// Writes the store refused (it was away), by hostname: laid over every read of the rows
/// until the ordering thread gets them written, so that a failure never loses an issued
/// certificate, a backoff or the CA's renewal window.
struct UnsavedWrites {
    var outcomes: [String: OrderOutcome] = [:]
    var renewalInformation: [String: RenewalInformationResult] = [:]

    var isEmpty: Bool { outcomes.isEmpty && renewalInformation.isEmpty }

    func overlay(_ rows: inout [String: StoredCertificate]) {
        for (host, outcome) in outcomes where outcome.isNewer(than: rows[host]) {
            rows[host] = outcome.applied(to: rows[host])
        }
        for (host, result) in renewalInformation {
            if let row = rows[host] { rows[host] = result.applied(to: row) }
        }
    }
}
