import Outbound
import Store

/// ACME Renewal Information (RFC 9773): the CA's suggested window becomes the renewal
/// time. Asked once per certificate for the whole fleet: the node that asks first moves
/// the row's next check past its turn (in one write under the row's claim), so the
/// other nodes find it not due; the answer goes into the row for all of them.
extension CertificateOrderer {
    /// How long a node's turn at asking holds: if it never writes the answer (it
    /// stopped), another node asks once the turn has passed.
    static let renewalInfoTurnMilliseconds: Int64 = 60_000
    /// The wait after the CA could not be reached (or its directory read).
    static let renewalInfoPauseMilliseconds: Int64 = 5 * 60_000

    /// Asks the CA when to renew `host`'s certificate, when its directory offers renewal
    /// information and the row's next check has come. False when the store or the CA is
    /// out of reach: the pass asks about no other hostname.
    mutating func checkRenewalInformation(_ host: String) -> Bool {
        let time = now()
        let (known, waiting) = manager.shared.withLock { s in
            (s.rows[host], s.unsaved.renewalInformation[host] != nil)
        }
        guard !waiting, let row = known, let chain = row.chainPEM, (row.renewalInfoCheckAt ?? 0) <= time,
            row.leaseUntil.map({ $0 <= time || row.leaseNode == settings.node }) ?? true
        else { return true }
        guard time >= renewalInfoPausedUntil else { return false }
        let directory: ACMEDirectory
        do {
            directory = try manager.client.directory()
        } catch {
            renewalInfoPausedUntil = time + Self.renewalInfoPauseMilliseconds
            return false
        }
        guard let base = directory.renewalInfo, let id = CertificateInfo(pem: chain)?.renewalInfoID else {
            return true
        }
        switch takeRenewalInfoTurn(host, chain: chain, time: time) {
        case .storeAway: return false
        case .notMine: return true
        case .mine: break
        }
        var result = RenewalInformationResult(
            hostname: host, chainPEM: chain, renewalAt: nil, checkAt: time + 6 * 3_600_000)
        do {
            let response = try manager.client.get(RenewalWindow.url(base: base, certificateID: id))
            if let json = response.json, let window = RenewalWindow(json: json) {
                let renewalAt = settings.policy.renewalTime(in: window, now: time, random: &random)
                result.renewalAt = renewalAt
                if let asked = RetryAfter.milliseconds(response.header("Retry-After"), now: time) {
                    result.checkAt = time + min(max(asked, 3_600_000), 24 * 3_600_000)
                }
                if renewalAt != row.renewalAt {
                    manager.hooks.event(.renewalInformation(hostname: host, renewalAt: renewalAt))
                }
            }
        } catch {
            let local = ACMEProblem.localPrefix
            if error.type == local + "connection" || error.type == local + "timeout" {
                // Out of reach: the turn passes to whichever node asks next; this one waits.
                renewalInfoPausedUntil = time + Self.renewalInfoPauseMilliseconds
                return false
            }
            // Any other answer: the policy's renewal time stands, asked again in 6 hours.
        }
        let written = result
        do {
            let stored = try manager.store.writeAndWait { tx in try written.write(tx) }
            manager.updateRows { s in
                if let stored { s.setRow(stored) }
            }
        } catch {
            manager.reportStoreFailure(error)
            manager.updateRows { s in s.keepUnsaved(written) }
        }
        return true
    }

    enum RenewalInfoTurn { case mine, notMine, storeAway }

    /// Moves the row's next check to the end of this node's turn, when it is still due
    /// for this certificate: under the row's claim, so that two nodes doing so at once
    /// wait for each other and the second finds it not due. The claim goes in the same write.
    private func takeRenewalInfoTurn(_ host: String, chain: String, time: Int64) -> RenewalInfoTurn {
        let node = settings.node
        let turnEnds = time + Self.renewalInfoTurnMilliseconds
        do {
            let (mine, row) = try manager.store.writeAndWait { tx -> (Bool, StoredCertificate?) in
                guard try tx.claimCertificateOrder(hostname: host, node: node, until: turnEnds, now: time) else {
                    return (false, nil)  // another node is ordering it
                }
                var mine = false
                if var current = try tx.storedCertificate(hostname: host), current.chainPEM == chain,
                    (current.renewalInfoCheckAt ?? 0) <= time
                {
                    current.renewalInfoCheckAt = turnEnds
                    try tx.putStoredCertificate(current)
                    mine = true
                }
                try tx.releaseCertificateOrder(hostname: host, node: node)
                return (mine, try tx.storedCertificate(hostname: host))
            }
            if let row { manager.updateRows { $0.setRow(row) } }
            return mine ? .mine : .notMine
        } catch {
            manager.reportStoreFailure(error)
            return .storeAway
        }
    }
}
