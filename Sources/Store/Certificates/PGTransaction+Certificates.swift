/// Writes of ACME's tables (decision 0017), as `SQLiteTransaction+Certificates`. The
/// claim is the fleet's lock on ordering a hostname: two nodes' UPDATEs of the same row
/// wait for each other, and the second finds the first's unexpired lease.
extension PGTransaction {
    private func bumpCertificatesVersion() throws(StoreError) {
        try db.run("pgt_acme_state_bump", "UPDATE acme_state SET version = version + 1 WHERE id = 1")
    }

    func putStoredCertificate(_ c: StoredCertificate) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(c.hostname)
        p.text(c.status.rawValue)
        p.text(c.chainPEM)
        p.text(c.keyPEM)
        p.int(c.notBefore)
        p.int(c.notAfter)
        p.text(c.issuer)
        p.int(c.renewalAt)
        p.int(c.renewalInfoCheckAt)
        p.text(c.lastErrorType)
        p.text(c.lastErrorDetail)
        p.int(Int64(c.failures))
        p.int(c.nextAttemptAt)
        p.text(c.leaseNode)
        p.int(c.leaseUntil)
        p.int(c.updatedAt)
        try db.run(
            "pgt_certificate_put",
            """
            INSERT INTO certificates (\(Self.certificateColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
            ON CONFLICT (hostname) DO UPDATE SET
                status = excluded.status, chain_pem = excluded.chain_pem, key_pem = excluded.key_pem,
                not_before = excluded.not_before, not_after = excluded.not_after, issuer = excluded.issuer,
                renewal_at = excluded.renewal_at, renewal_info_check_at = excluded.renewal_info_check_at,
                last_error_type = excluded.last_error_type, last_error_detail = excluded.last_error_detail,
                failures = excluded.failures, next_attempt_at = excluded.next_attempt_at,
                lease_node = excluded.lease_node, lease_until = excluded.lease_until, updated_at = excluded.updated_at
            """, p)
        try bumpCertificatesVersion()
    }

    func deleteStoredCertificate(hostname: String) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        let n = try db.run("pgt_certificate_delete", "DELETE FROM certificates WHERE hostname = $1", p).affectedRows
        try bumpCertificatesVersion()
        return n > 0
    }

    func claimCertificateOrder(hostname: String, node: String, until: Int64, now: Int64) throws(StoreError) -> Bool {
        try willQuery()
        var insert = PGParams()
        insert.text(hostname)
        insert.int(now)
        try db.run(
            "pgt_certificate_claim_row",
            """
            INSERT INTO certificates (hostname, status, failures, updated_at) VALUES ($1, 'pending', 0, $2)
            ON CONFLICT (hostname) DO NOTHING
            """, insert)
        var p = PGParams()
        p.text(hostname)
        p.text(node)
        p.int(until)
        p.int(now)
        let claimed =
            try db.run(
                "pgt_certificate_claim",
                """
                UPDATE certificates SET lease_node = $2, lease_until = $3
                WHERE hostname = $1 AND (lease_until IS NULL OR lease_until <= $4 OR lease_node = $2)
                """, p
            ).affectedRows > 0
        if claimed { try bumpCertificatesVersion() }
        return claimed
    }

    func releaseCertificateOrder(hostname: String, node: String) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        p.text(node)
        let n = try db.run(
            "pgt_certificate_release",
            "UPDATE certificates SET lease_node = NULL, lease_until = NULL WHERE hostname = $1 AND lease_node = $2", p
        ).affectedRows
        if n > 0 { try bumpCertificatesVersion() }
    }

    func insertACMEAccountIfAbsent(_ a: ACMEAccountRecord) throws(StoreError) -> ACMEAccountRecord {
        try willQuery()
        var p = PGParams()
        p.text(a.directoryURL)
        p.text(a.keyPEM)
        p.text(a.accountURL)
        p.int(a.createdAt)
        try db.run(
            "pgt_acme_account_insert",
            """
            INSERT INTO acme_accounts (directory_url, key_pem, account_url, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (directory_url) DO NOTHING
            """, p)
        return try acmeAccount(directoryURL: a.directoryURL) ?? a
    }

    func setACMEAccountURL(directoryURL: String, accountURL: String?) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(directoryURL)
        p.text(accountURL)
        try db.run(
            "pgt_acme_account_url", "UPDATE acme_accounts SET account_url = $2 WHERE directory_url = $1", p)
    }

    func putACMEChallenge(_ c: ACMEChallengeRecord) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(c.token)
        p.text(c.hostname)
        p.text(c.kind.rawValue)
        p.text(c.keyAuthorization)
        p.int(c.expiresAt)
        try db.run(
            "pgt_acme_challenge_put",
            """
            INSERT INTO acme_challenges (token, hostname, kind, key_authorization, expires_at)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (token) DO UPDATE SET hostname = excluded.hostname, kind = excluded.kind,
                key_authorization = excluded.key_authorization, expires_at = excluded.expires_at
            """, p)
        try bumpCertificatesVersion()
    }

    func deleteACMEChallenge(token: String) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(token)
        if try db.run("pgt_acme_challenge_delete", "DELETE FROM acme_challenges WHERE token = $1", p).affectedRows > 0 {
            try bumpCertificatesVersion()
        }
    }

    func deleteExpiredACMEChallenges(now: Int64) throws(StoreError) -> Int {
        try willQuery()
        var p = PGParams()
        p.int(now)
        let n = try db.run(
            "pgt_acme_challenges_expired", "DELETE FROM acme_challenges WHERE expires_at <= $1", p
        ).affectedRows
        if n > 0 { try bumpCertificatesVersion() }
        return n
    }

    func insertCertificateOrder(_ o: CertificateOrderRecord) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(o.hostname)
        p.text(o.node)
        p.int(o.startedAt)
        p.int(o.finishedAt)
        p.text(o.result)
        p.text(o.problemType)
        p.text(o.detail)
        try db.run(
            "pgt_certificate_order",
            """
            INSERT INTO certificate_orders (hostname, node, started_at, finished_at, result, problem_type, detail)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """, p)
    }

    func pruneCertificateOrders(keep: Int) throws(StoreError) -> Int {
        try willQuery()
        var p = PGParams()
        p.int(Int64(keep))
        return try db.run(
            "pgt_certificate_orders_prune",
            """
            DELETE FROM certificate_orders WHERE id IN (
                SELECT id FROM (
                    SELECT id, row_number() OVER (PARTITION BY hostname ORDER BY id DESC) AS n FROM certificate_orders
                ) ranked WHERE n > $1)
            """, p
        ).affectedRows
    }
}
