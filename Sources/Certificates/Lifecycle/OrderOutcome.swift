import Store

/// How one order ended, as it goes into the hostname's row and `certificate_orders`.
/// Kept by the manager until the store takes it: an issued certificate is served (and
/// not ordered again) while the store is away.
struct OrderOutcome: Sendable {
    var hostname: String
    var node: String
    var started: Int64
    var finished: Int64
    var issued: IssuedCertificate?
    var failure: ACMEProblem?
    /// The new certificate's renewal time (after `issued`).
    var renewalAt: Int64?
    /// The next attempt (after `failure`).
    var nextAttemptAt: Int64?

    /// For `biqli_acme_orders_total` and `certificate_orders`.
    var result: String {
        issued != nil ? "issued" : (failure?.isRateLimited == true ? "rate_limited" : "failed")
    }

    /// `stored` (or a new row) with this outcome, and this node's claim given back.
    func applied(to stored: StoredCertificate?) -> StoredCertificate {
        var row = stored ?? StoredCertificate(hostname: hostname, status: .pending, updatedAt: finished)
        if let issued {
            row.status = .valid
            row.chainPEM = issued.chainPEM
            row.keyPEM = issued.keyPEM
            row.notBefore = issued.info.notBefore
            row.notAfter = issued.info.notAfter
            row.issuer = issued.info.issuer
            row.renewalAt = renewalAt
            row.renewalInfoCheckAt = nil
            row.lastErrorType = nil
            row.lastErrorDetail = nil
            row.failures = 0
            row.nextAttemptAt = nil
        } else if let failure {
            row.status = .failed
            row.lastErrorType = failure.type
            row.lastErrorDetail = failure.detail
            row.failures += 1
            row.nextAttemptAt = nextAttemptAt
        }
        if row.leaseNode == node {
            row.leaseNode = nil
            row.leaseUntil = nil
        }
        row.updatedAt = finished
        return row
    }

    /// False when `stored` has news this outcome must not undo: an outcome recorded after
    /// it (a claim that lapsed while the store was away), or a certificate that ends later.
    func isNewer(than stored: StoredCertificate?) -> Bool {
        guard let stored else { return true }
        if stored.updatedAt > finished { return false }
        if let issued, stored.chainPEM != nil, let notAfter = stored.notAfter, notAfter > issued.info.notAfter {
            return false
        }
        return true
    }

    /// Writes the attempt, and the row unless it has news (then only the claim is given
    /// back). The row as stored.
    func write(_ tx: any CertificateWriting) throws -> StoredCertificate? {
        try tx.insertCertificateOrder(
            CertificateOrderRecord(
                hostname: hostname, node: node, startedAt: started, finishedAt: finished, result: result,
                problemType: failure?.type, detail: failure?.detail))
        let current = try tx.storedCertificate(hostname: hostname)
        guard isNewer(than: current) else {
            try tx.releaseCertificateOrder(hostname: hostname, node: node)
            return try tx.storedCertificate(hostname: hostname)
        }
        let row = applied(to: current)
        try tx.putStoredCertificate(row)
        return row
    }
}
