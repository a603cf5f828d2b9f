import Core
import Store

/// Ordering one hostname and recording the outcome.
extension CertificateOrderer {
    /// Claims `host`, orders, and records the outcome (the certificate, or the failure and
    /// the next attempt) in its row, giving the claim back in the same write. False when
    /// the store cannot be reached for the claim.
    mutating func attempt(_ host: String) -> Bool {
        let start = now()
        let node = settings.node
        let until = start + settings.leaseMilliseconds
        let previous = manager.shared.withLock { $0.rows[host] }
        let seen = OrderState(previous)
        let claimed: Bool
        do {
            claimed = try manager.store.writeAndWait { tx in
                guard try tx.claimCertificateOrder(hostname: host, node: node, until: until, now: start) else {
                    return false
                }
                // This node decided from the rows it last read; another node may have
                // ordered (or failed) since and given its claim back a moment ago. Then the
                // row is not what was seen: give the claim back, and decide again once read.
                guard OrderState(try tx.storedCertificate(hostname: host)) == seen else {
                    try tx.releaseCertificateOrder(hostname: host, node: node)
                    return false
                }
                return true
            }
        } catch {
            manager.reportStoreFailure(error)
            return false
        }
        guard claimed else { return true }
        manager.hooks.event(.orderStarted(hostname: host, renewal: previous?.chainPEM != nil))
        var issued: IssuedCertificate?
        var failure: ACMEProblem?
        do {
            issued = try order(host, previous: previous)
        } catch {
            failure = error
        }
        if failure?.type == ACMEProblem.localPrefix + "stopped" {
            _ = try? manager.store.writeAndWait { tx in try tx.releaseCertificateOrder(hostname: host, node: node) }
            return true
        }
        noteReachability(failure)
        record(host, started: start, issued: issued, failure: failure)
        return true
    }

    /// After a failure to reach the CA at all, the other hostnames wait with this one
    /// (growing waits too), rather than each failing alike, one log line apiece.
    private mutating func noteReachability(_ failure: ACMEProblem?) {
        let local = ACMEProblem.localPrefix
        guard let failure, failure.type == local + "connection" || failure.type == local + "timeout" else {
            unreachableFailures = 0
            unreachableUntil = 0
            return
        }
        unreachableFailures += 1
        unreachableUntil = now() + settings.policy.backoff(failures: unreachableFailures, random: &random)
        manager.client.forgetDirectory()
    }

    /// The order itself: the account, then `ACMEOrder`, replacing the current certificate
    /// by its CertID when the CA offers renewal information.
    private mutating func order(_ host: String, previous: StoredCertificate?) throws(ACMEProblem)
        -> IssuedCertificate
    {
        let (key, url) = try ensureAccount()
        var kinds = settings.challenges
        if let failed = lastKind[host], kinds.count > 1, let i = kinds.firstIndex(of: failed) {
            kinds.append(kinds.remove(at: i))  // the other type first after a failure
        }
        let client = manager.client
        var replaces: String?
        if (try? client.directory().renewalInfo) != nil, let chain = previous?.chainPEM {
            replaces = CertificateInfo(pem: chain)?.renewalInfoID
        }
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(settings.orderTimeoutMilliseconds) * 1_000_000
        let manager = manager
        func run(_ replaces: String?) throws(ACMEProblem) -> IssuedCertificate {
            try ACMEOrder(
                client: client, accountKey: key, accountURL: url, hostname: host, kinds: kinds, replaces: replaces,
                responder: manager, deadline: deadline, now: manager.now
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

    /// Writes the outcome in the row (and the attempt in `certificate_orders`). When the
    /// store refuses it, the outcome is kept (an issued certificate served meanwhile) and
    /// written by a later pass: nothing issued is lost, no backoff forgotten.
    private mutating func record(_ host: String, started: Int64, issued: IssuedCertificate?, failure: ACMEProblem?) {
        let finished = now()
        var outcome = OrderOutcome(
            hostname: host, node: settings.node, started: started, finished: finished, issued: issued,
            failure: failure)
        let failures = (manager.shared.withLock { $0.rows[host]?.failures } ?? 0) + 1
        if let issued {
            outcome.renewalAt = settings.policy.renewalTime(
                notBefore: issued.info.notBefore, notAfter: issued.info.notAfter, random: &random)
            lastKind[host] = nil
        } else if let failure {
            outcome.nextAttemptAt = settings.policy.nextAttempt(
                after: failure, failures: failures, now: finished, random: &random)
            if let kind = manager.shared.withLock({ $0.lastPublished[host] }) { lastKind[host] = kind }
        }
        let written = outcome
        do {
            let row = try manager.store.writeAndWait { tx in try written.write(tx) }
            manager.updateRows { s in
                if let row { s.setRow(row) }
            }
        } catch {
            manager.reportStoreFailure(error)
            manager.updateRows { s in s.keepUnsaved(written) }
            manager.serveStored()
        }
        manager.count(outcome.result)
        if let issued {
            manager.hooks.event(
                .issued(
                    hostname: host, notAfter: issued.info.notAfter, issuer: issued.info.issuer,
                    renewalAt: outcome.renewalAt ?? issued.info.notAfter))
        } else if let failure {
            manager.hooks.event(
                .orderFailed(
                    hostname: host, problem: failure, failures: failures,
                    nextAttemptAt: outcome.nextAttemptAt ?? finished))
        }
    }
}

/// What an order is decided from in a certificate's row: the certificate it holds and
/// the outcome of the last attempt. A node orders only when the row still says what it
/// read when it found the order due (a row not yet made reads as a new pending one).
struct OrderState: Equatable {
    var notAfter: Int64?
    var status: StoredCertificate.Status
    var failures: Int
    var nextAttemptAt: Int64?

    init(_ row: StoredCertificate?) {
        notAfter = row?.notAfter
        status = row?.status ?? .pending
        failures = row?.failures ?? 0
        nextAttemptAt = row?.nextAttemptAt
    }
}
