import Store

/// ACME Renewal Information (RFC 9773): the CA's suggested window becomes the renewal time.
extension CertificateManager {
    /// Asks the CA when to renew `host`'s certificate (RFC 9773), when its directory offers
    /// renewal information and the last answer's `Retry-After` has passed.
    func checkRenewalInformation(_ host: String) {
        let time = now()
        guard let row = lock.withLock({ _ in rows[host] }), let chain = row.chainPEM,
            (row.renewalInfoCheckAt ?? 0) <= time,
            row.leaseUntil.map({ $0 <= time || row.leaseNode == settings.node }) ?? true, time >= directoryRetryAt
        else { return }
        let directory: ACMEDirectory
        do {
            directory = try client.directory()
        } catch {
            directoryRetryAt = time + 5 * 60_000
            return
        }
        guard let base = directory.renewalInfo, let id = CertificateInfo(pem: chain)?.renewalInfoID else { return }
        var renewalAt = row.renewalAt
        var wait: Int64 = 6 * 3_600_000
        if let response = try? client.get(RenewalWindow.url(base: base, certificateID: id)),
            let json = response.json, let window = RenewalWindow(json: json)
        {
            renewalAt = settings.policy.renewalTime(in: window, now: time, random: &random)
            if let asked = RetryAfter.milliseconds(response.header("Retry-After"), now: time) {
                wait = min(max(asked, 3_600_000), 24 * 3_600_000)
            }
            if renewalAt != row.renewalAt { hooks.event(.renewalInformation(hostname: host, renewalAt: renewalAt!)) }
        }
        let checkAt = time + wait
        let chosen = renewalAt
        do {
            let updated = try store.writeAndWait { tx -> StoredCertificate? in
                guard var current = try tx.storedCertificate(hostname: host), current.chainPEM == chain else {
                    return nil
                }
                current.renewalAt = chosen
                current.renewalInfoCheckAt = checkAt
                try tx.putStoredCertificate(current)
                return current
            }
            if let updated { lock.withLock { _ in rows[host] = updated } }
        } catch {
            reportStoreFailure(error)
        }
    }
}
