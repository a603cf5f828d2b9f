import Store

/// Learning the store's rows and serving them: the sync thread every second, the
/// ordering thread after each order. The store is read outside the lock, so that a
/// slow store holds neither thread's work on the other.
extension CertificateManager {
    /// Reads the store's rows when they changed (or when `force`d), keeps them, answers
    /// the fleet's challenges, and serves the stored certificates. A failed read keeps
    /// the rows as they were: what serves keeps serving. Either thread.
    func refresh(force: Bool) {
        let time = now()
        let due: (known: Int64?, changes: Int)? = shared.withLock { s in
            guard force || time >= s.nextStorePoll else { return nil }
            s.nextStorePoll = time + settings.storePollMilliseconds
            return (force ? nil : s.lastVersion, s.localChanges)
        }
        if let due {
            let known = due.known
            do {
                let (version, read) = try store.writeAndWait { tx in
                    let version = try tx.certificatesVersion()
                    if version == known { return (version, nil as ([StoredCertificate], [ACMEChallengeRecord])?) }
                    return (version, (try tx.storedCertificates(), try tx.acmeChallenges()))
                }
                storeFailing.store(false, ordering: .relaxed)
                if let (certificates, challenges) = read {
                    updateRows { s in
                        // The other thread applied a newer read, or this node changed a row,
                        // meanwhile: this read is stale (the next poll reads again).
                        if let last = s.lastVersion, version < last { return }
                        guard s.localChanges == due.changes else {
                            s.nextStorePoll = 0
                            return
                        }
                        s.lastVersion = version
                        s.replaceRows(certificates)
                        syncFleetChallenges(challenges, in: &s)
                    }
                }
            } catch {
                reportStoreFailure(error)
            }
        }
        serveStored()
    }

    /// Changes the shared state, and the snapshot the API reads with it.
    func updateRows(_ change: (inout SharedCertificateState) -> Void) {
        shared.withLock { s in
            change(&s)
            let view = s.rows.mapValues(ManagedCertificate.init)
            snapshot.withLock { $0 = view }
        }
    }

    /// Hands the unexpired certificates to the server when the list changed. The rows are
    /// read under `served`'s lock, so that two threads' hand-overs never land out of order.
    func serveStored() {
        served.withLock { served in
            let time = now()
            let (versions, list): ([String: String], [ServedCertificate]?) = shared.withLock { s in
                let versions = s.servableVersions(at: time)
                return (versions, versions == served ? nil : s.served(versions))
            }
            guard let list else { return }
            served = versions
            hooks.serve(list)
        }
    }
}
