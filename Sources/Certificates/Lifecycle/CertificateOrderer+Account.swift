import Store

/// The ACME account: one per CA directory, for the whole fleet.
extension CertificateOrderer {
    /// The account's key and URL: read from the store, made (once for the fleet) and
    /// registered when missing.
    mutating func ensureAccount() throws(ACMEProblem) -> (key: ECKey, url: String) {
        if let account { return account }
        let directoryURL = settings.directoryURL
        let created = now()
        let stored: ACMEAccountRecord
        do {
            if let found = try manager.store.writeAndWait({ tx in try tx.acmeAccount(directoryURL: directoryURL) }) {
                stored = found
            } else {
                let pem = try ECKey.generate().pem
                stored = try manager.store.writeAndWait { tx in
                    try tx.insertACMEAccountIfAbsent(
                        ACMEAccountRecord(directoryURL: directoryURL, keyPEM: pem, accountURL: nil, createdAt: created))
                }
            }
        } catch let error as StoreError {
            throw .local("store", "cannot read or keep the ACME account: \(error)")
        } catch {
            throw .local("crypto", "\(error)")
        }
        let key: ECKey
        do {
            key = try ECKey(pem: stored.keyPEM)
        } catch {
            throw .local("crypto", "the stored ACME account key is unusable: \(error)")
        }
        var url = stored.accountURL
        if url == nil {
            let registered = try manager.client.account(
                key: key, contact: settings.email, eab: settings.externalAccount)
            do {
                try manager.store.writeAndWait { tx in
                    try tx.setACMEAccountURL(directoryURL: directoryURL, accountURL: registered)
                }
            } catch {
                throw .local("store", "cannot keep the ACME account: \(error)")
            }
            manager.hooks.event(.accountRegistered(directory: directoryURL, account: registered))
            url = registered
        }
        account = (key, url!)
        return (key, url!)
    }

    /// The CA no longer knows the account: register again at the next order.
    mutating func forgetAccount() {
        account = nil
        let directoryURL = settings.directoryURL
        _ = try? manager.store.writeAndWait { tx in
            try tx.setACMEAccountURL(directoryURL: directoryURL, accountURL: nil)
        }
        manager.client.forgetDirectory()
    }
}
