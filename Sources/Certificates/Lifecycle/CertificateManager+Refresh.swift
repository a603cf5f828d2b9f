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
        let due: Int64?? = shared.withLock { s in
            guard force || time >= s.nextStorePoll else { return nil }
            s.nextStorePoll = time + settings.storePollMilliseconds
            return .some(force ? nil : s.lastVersion)
        }
        if case .some(let known) = due {
            do {
                let (version, read) = try store.writeAndWait { tx in
                    let version = try tx.certificatesVersion()
                    if version == known { return (version, nil as ([StoredCertificate], [ACMEChallengeRecord])?) }
                    return (version, (try tx.storedCertificates(), try tx.acmeChallenges()))
                }
                storeFailing.store(false, ordering: .relaxed)
                updateRows { s in
                    // The other thread may have applied a newer read meanwhile.
                    if let last = s.lastVersion, version < last { return }
                    s.lastVersion = version
                    guard let (certificates, challenges) = read else { return }
                    s.replaceRows(certificates)
                    syncFleetChallenges(challenges, in: &s)
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
