import Store

/// Writing what the store refused while it was away: the outcomes of orders (an issued
/// certificate above all) and the CA's renewal information.
extension CertificateOrderer {
    /// Writes the unsaved outcomes; false when the store still refuses (the pass ends).
    func writeUnsaved() -> Bool {
        let pending = manager.shared.withLock { $0.unsaved }
        guard !pending.isEmpty else { return true }
        for (host, outcome) in pending.outcomes {
            do {
                let row = try manager.store.writeAndWait { tx in try outcome.write(tx) }
                manager.updateRows { s in
                    s.forgetUnsavedOutcome(host)
                    if let row { s.setRow(row) }
                }
            } catch {
                manager.reportStoreFailure(error)
                return false
            }
        }
        for (host, result) in pending.renewalInformation {
            do {
                _ = try manager.store.writeAndWait { tx in try result.write(tx) }
                manager.updateRows { s in s.forgetUnsavedRenewalInformation(host) }
            } catch {
                manager.reportStoreFailure(error)
                return false
            }
        }
        manager.refresh(force: true)
        return true
    }
}
