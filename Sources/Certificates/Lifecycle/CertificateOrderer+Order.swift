import Core
import Store

/// Ordering one hostname and recording the outcome.
extension CertificateManager {
    /// Claims `host`, orders, and records the outcome (the certificate, or the failure and
    /// the next attempt) in its row, giving the claim back in the same write.
    func attempt(_ host: String) {
        let start = now()
        let node = settings.node
        let until = start + settings.leaseMilliseconds
        let claimed: Bool
        do {
            claimed = try store.writeAndWait { tx in
                try tx.claimCertificateOrder(hostname: host, node: node, until: until, now: start)
            }
        } catch {
            reportStoreFailure(error)
            return
        }
        guard claimed else { return }
        let previous = lock.withLock { _ in rows[host] }
        hooks.event(.orderStarted(hostname: host, renewal: previous?.chainPEM != nil))
        var issued: IssuedCertificate?
        var failure: ACMEProblem?
        do {
            issued = try order(host, previous: previous)
        } catch {
            failure = error
        }
        if failure?.type == ACMEProblem.localPrefix + "stopped" {
            _ = try? store.writeAndWait { tx in try tx.releaseCertificateOrder(hostname: host, node: node) }
            return
        }
        noteReachability(failure)
        record(host, started: start, issued: issued, failure: failure)
    }

    /// After a failure to reach the CA at all, the other hostnames wait with this one
    /// (growing waits too), rather than each failing alike, one log line apiece.
    private func noteReachability(_ failure: ACMEProblem?) {
        let local = ACMEProblem.localPrefix
        guard let failure, failure.type == local + "connection" || failure.type == local + "timeout" else {
            unreachableFailures = 0
            unreachableUntil = 0
            return
        }
        unreachableFailures += 1
        unreachableUntil = now() + settings.policy.backoff(failures: unreachableFailures, random: &random)
        client.forgetDirectory()
    }

    /// The order itself: the account, then `ACMEOrder`, replacing the current certificate
    /// by its CertID when the CA offers renewal information.
    private func order(_ host: String, previous: StoredCertificate?) throws(ACMEProblem) -> IssuedCertificate {
        let (key, url) = try ensureAccount()
        var kinds = settings.challenges
        if let failed = lastKind[host], kinds.count > 1, let i = kinds.firstIndex(of: failed) {
            kinds.append(kinds.remove(at: i))  // the other type first after a failure
        }
        var replaces: String?
        if (try? client.directory().renewalInfo) != nil, let chain = previous?.chainPEM {
            replaces = CertificateInfo(pem: chain)?.renewalInfoID
        }
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(settings.orderTimeoutMilliseconds) * 1_000_000
        func run(_ replaces: String?) throws(ACMEProblem) -> IssuedCertificate {
            try ACMEOrder(
                client: client, accountKey: key, accountURL: url, hostname: host, kinds: kinds, replaces: replaces,
                responder: self, deadline: deadline, now: now
            ).run()
        }
        do {
            return try run(replaces)
        } catch {
            if error.isAccountMissing || error.type == ACMEProblem.acmePrefix + "unauthorized" && error.status == 401 {
                forgetAccount()
            }
            // A CA that refuses the `replaces` field (already replaced, unknown): order plainly.
            if replaces != nil, error.status == 409 || error.type == ACMEProblem.acmePrefix + "malformed" {
                return try run(nil)
            }
            throw error
        }
    }

    /// Writes the outcome in the row (and the attempt in `certificate_orders`).
    private func record(_ host: String, started: Int64, issued: IssuedCertificate?, failure: ACMEProblem?) {
        let finished = now()
        let node = settings.node
        var renewalAt: Int64?
        var nextAttempt: Int64?
        let failures = (lock.withLock { _ in rows[host]?.failures } ?? 0) + 1
        if let issued {
            renewalAt = settings.policy.renewalTime(
                notBefore: issued.info.notBefore, notAfter: issued.info.notAfter, random: &random)
            lastKind[host] = nil
        } else if let failure {
            nextAttempt = settings.policy.nextAttempt(
                after: failure, failures: failures, now: finished, random: &random)
            if let kind = lock.withLock({ _ in lastPublished[host] }) { lastKind[host] = kind }
        }
        let result = issued != nil ? "issued" : (failure?.isRateLimited == true ? "rate_limited" : "failed")
        let renewal = renewalAt
        let next = nextAttempt
        do {
            let row = try store.writeAndWait { tx in
                var row =
                    try tx.storedCertificate(hostname: host)
                    ?? StoredCertificate(hostname: host, status: .pending, updatedAt: finished)
                if let issued {
                    row.status = .valid
                    row.chainPEM = issued.chainPEM
                    row.keyPEM = issued.keyPEM
                    row.notBefore = issued.info.notBefore
                    row.notAfter = issued.info.notAfter
                    row.issuer = issued.info.issuer
                    row.renewalAt = renewal
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
                    row.nextAttemptAt = next
                }
                if row.leaseNode == node {
                    row.leaseNode = nil
                    row.leaseUntil = nil
                }
                row.updatedAt = finished
                try tx.putStoredCertificate(row)
                try tx.insertCertificateOrder(
                    CertificateOrderRecord(
                        hostname: host, node: node, startedAt: started, finishedAt: finished, result: result,
                        problemType: failure?.type, detail: failure?.detail))
                return row
            }
            lock.withLock { _ in rows[host] = row }
        } catch {
            reportStoreFailure(error)
        }
        count(result)
        if let issued {
            hooks.event(
                .issued(
                    hostname: host, notAfter: issued.info.notAfter, issuer: issued.info.issuer,
                    renewalAt: renewal ?? issued.info.notAfter))
        } else if let failure {
            hooks.event(
                .orderFailed(
                    hostname: host, problem: failure, failures: failures,
                    nextAttemptAt: next ?? finished))
        }
    }
}
