/// Writes of ACME's tables (decision 0017). None touches the caches of links, domains or
/// keys; each moves `acme_state.version`.
extension SQLiteTransaction {
    private func bumpCertificatesVersion() throws(StoreError) {
        try db.execute("UPDATE acme_state SET version = version + 1 WHERE id = 1")
    }

    static let upsertStoredCertificateSQL = """
        INSERT INTO certificates (\(certificateColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
        ON CONFLICT (hostname) DO UPDATE SET
            status = excluded.status, chain_pem = excluded.chain_pem, key_pem = excluded.key_pem,
            not_before = excluded.not_before, not_after = excluded.not_after, issuer = excluded.issuer,
            renewal_at = excluded.renewal_at, renewal_info_check_at = excluded.renewal_info_check_at,
            last_error_type = excluded.last_error_type, last_error_detail = excluded.last_error_detail,
            failures = excluded.failures, next_attempt_at = excluded.next_attempt_at,
            lease_node = excluded.lease_node, lease_until = excluded.lease_until, updated_at = excluded.updated_at
        """

    func putStoredCertificate(_ c: StoredCertificate) throws(StoreError) {
        try db.execute(Self.upsertStoredCertificateSQL) { s in
            s.bind(1, c.hostname)
            s.bind(2, c.status.rawValue)
            s.bind(3, c.chainPEM)
            s.bind(4, c.keyPEM)
            s.bind(5, c.notBefore)
            s.bind(6, c.notAfter)
            s.bind(7, c.issuer)
            s.bind(8, c.renewalAt)
            s.bind(9, c.renewalInfoCheckAt)
            s.bind(10, c.lastErrorType)
            s.bind(11, c.lastErrorDetail)
            s.bind(12, c.failures)
            s.bind(13, c.nextAttemptAt)
            s.bind(14, c.leaseNode)
            s.bind(15, c.leaseUntil)
            s.bind(16, c.updatedAt)
        }
        try bumpCertificatesVersion()
    }

    func deleteStoredCertificate(hostname: String) throws(StoreError) -> Bool {
        let n = try db.execute("DELETE FROM certificates WHERE hostname = ?1") { $0.bind(1, hostname) }
        try bumpCertificatesVersion()
        return n > 0
    }

    func claimCertificateOrder(hostname: String, node: String, until: Int64, now: Int64) throws(StoreError) -> Bool {
        try db.execute(
            """
            INSERT INTO certificates (hostname, status, failures, updated_at) VALUES (?1, 'pending', 0, ?2)
            ON CONFLICT (hostname) DO NOTHING
            """
        ) { s in
            s.bind(1, hostname)
            s.bind(2, now)
        }
        let claimed = try db.execute(
            """
            UPDATE certificates SET lease_node = ?2, lease_until = ?3
            WHERE hostname = ?1 AND (lease_until IS NULL OR lease_until <= ?4 OR lease_node = ?2)
            """
        ) { s in
            s.bind(1, hostname)
            s.bind(2, node)
            s.bind(3, until)
            s.bind(4, now)
        }
        if claimed > 0 { try bumpCertificatesVersion() }
        return claimed > 0
    }

    func releaseCertificateOrder(hostname: String, node: String) throws(StoreError) {
        let n = try db.execute(
            "UPDATE certificates SET lease_node = NULL, lease_until = NULL WHERE hostname = ?1 AND lease_node = ?2"
        ) { s in
            s.bind(1, hostname)
            s.bind(2, node)
        }
        if n > 0 { try bumpCertificatesVersion() }
    }

    func insertACMEAccountIfAbsent(_ a: ACMEAccountRecord) throws(StoreError) -> ACMEAccountRecord {
        try db.execute(
            """
            INSERT INTO acme_accounts (directory_url, key_pem, account_url, created_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (directory_url) DO NOTHING
            """
        ) { s in
            s.bind(1, a.directoryURL)
            s.bind(2, a.keyPEM)
            s.bind(3, a.accountURL)
            s.bind(4, a.createdAt)
        }
        return try acmeAccount(directoryURL: a.directoryURL) ?? a
    }

    func setACMEAccountURL(directoryURL: String, accountURL: String?) throws(StoreError) {
        try db.execute("UPDATE acme_accounts SET account_url = ?2 WHERE directory_url = ?1") { s in
            s.bind(1, directoryURL)
            s.bind(2, accountURL)
        }
    }

    func putACMEChallenge(_ c: ACMEChallengeRecord) throws(StoreError) {
        try db.execute(
            """
            INSERT INTO acme_challenges (token, hostname, kind, key_authorization, expires_at)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (token) DO UPDATE SET hostname = excluded.hostname, kind = excluded.kind,
                key_authorization = excluded.key_authorization, expires_at = excluded.expires_at
            """
        ) { s in
            s.bind(1, c.token)
            s.bind(2, c.hostname)
            s.bind(3, c.kind.rawValue)
            s.bind(4, c.keyAuthorization)
            s.bind(5, c.expiresAt)
        }
        try bumpCertificatesVersion()
    }

    func deleteACMEChallenge(token: String) throws(StoreError) {
        if try db.execute("DELETE FROM acme_challenges WHERE token = ?1", { $0.bind(1, token) }) > 0 {
            try bumpCertificatesVersion()
        }
    }

    func deleteExpiredACMEChallenges(now: Int64) throws(StoreError) -> Int {
        let n = try db.execute("DELETE FROM acme_challenges WHERE expires_at <= ?1") { $0.bind(1, now) }
        if n > 0 { try bumpCertificatesVersion() }
        return n
    }

    func insertCertificateOrder(_ o: CertificateOrderRecord) throws(StoreError) {
        try db.execute(
            """
            INSERT INTO certificate_orders (hostname, node, started_at, finished_at, result, problem_type, detail)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """
        ) { s in
            s.bind(1, o.hostname)
            s.bind(2, o.node)
            s.bind(3, o.startedAt)
            s.bind(4, o.finishedAt)
            s.bind(5, o.result)
            s.bind(6, o.problemType)
            s.bind(7, o.detail)
        }
    }

    func pruneCertificateOrders(keep: Int) throws(StoreError) -> Int {
        try db.execute(
            """
            DELETE FROM certificate_orders WHERE id IN (
                SELECT id FROM (
                    SELECT id, row_number() OVER (PARTITION BY hostname ORDER BY id DESC) AS n FROM certificate_orders
                ) WHERE n > ?1)
            """
        ) { $0.bind(1, keep) }
    }
}
