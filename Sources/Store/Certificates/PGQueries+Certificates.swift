/// Reads of ACME's tables (decision 0017), as `SQLiteQueries+Certificates`.
extension PGQueries {
    static let certificateColumns = """
        hostname, status, chain_pem, key_pem, not_before, not_after, issuer, renewal_at, renewal_info_check_at,
        last_error_type, last_error_detail, failures, next_attempt_at, lease_node, lease_until, updated_at
        """

    static func decodeStoredCertificate(_ r: PGResult, _ i: Int) -> StoredCertificate {
        StoredCertificate(
            hostname: r.text(i, 0), status: StoredCertificate.Status(rawValue: r.text(i, 1)) ?? .pending,
            chainPEM: r.optionalText(i, 2), keyPEM: r.optionalText(i, 3), notBefore: r.optionalInt(i, 4),
            notAfter: r.optionalInt(i, 5), issuer: r.optionalText(i, 6), renewalAt: r.optionalInt(i, 7),
            renewalInfoCheckAt: r.optionalInt(i, 8), lastErrorType: r.optionalText(i, 9),
            lastErrorDetail: r.optionalText(i, 10), failures: Int(r.int(i, 11)), nextAttemptAt: r.optionalInt(i, 12),
            leaseNode: r.optionalText(i, 13), leaseUntil: r.optionalInt(i, 14), updatedAt: r.int(i, 15))
    }

    func storedCertificates() throws(StoreError) -> [StoredCertificate] {
        try willQuery()
        return try Self.all(
            db.run(
                "pgq_certificates",
                "SELECT \(Self.certificateColumns) FROM certificates ORDER BY hostname COLLATE \"C\""),
            Self.decodeStoredCertificate)
    }

    func storedCertificate(hostname: String) throws(StoreError) -> StoredCertificate? {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        return try Self.first(
            db.run(
                "pgq_certificate", "SELECT \(Self.certificateColumns) FROM certificates WHERE hostname = $1", p),
            Self.decodeStoredCertificate)
    }

    func acmeAccount(directoryURL: String) throws(StoreError) -> ACMEAccountRecord? {
        try willQuery()
        var p = PGParams()
        p.text(directoryURL)
        return try Self.first(
            db.run(
                "pgq_acme_account",
                "SELECT directory_url, key_pem, account_url, created_at FROM acme_accounts WHERE directory_url = $1",
                p)
        ) { r, i in
            ACMEAccountRecord(
                directoryURL: r.text(i, 0), keyPEM: r.text(i, 1), accountURL: r.optionalText(i, 2),
                createdAt: r.int(i, 3))
        }
    }

    func acmeChallenges() throws(StoreError) -> [ACMEChallengeRecord] {
        try willQuery()
        return try Self.all(
            db.run(
                "pgq_acme_challenges",
                "SELECT token, hostname, kind, key_authorization, expires_at FROM acme_challenges "
                    + "ORDER BY token COLLATE \"C\"")
        ) { r, i in
            ACMEChallengeRecord(
                token: r.text(i, 0), hostname: r.text(i, 1),
                kind: ACMEChallengeRecord.Kind(rawValue: r.text(i, 2)) ?? .http01, keyAuthorization: r.text(i, 3),
                expiresAt: r.int(i, 4))
        }
    }

    func certificatesVersion() throws(StoreError) -> Int64 {
        try willQuery()
        let rows = try db.run("pgq_certificates_version", "SELECT version FROM acme_state WHERE id = 1")
        return rows.rowCount == 1 ? rows.int(0, 0) : 0
    }

    func certificateOrders(hostname: String, limit: Int) throws(StoreError) -> [CertificateOrderRecord] {
        try willQuery()
        var p = PGParams()
        p.text(hostname)
        p.int(Int64(limit))
        return try Self.all(
            db.run(
                "pgq_certificate_orders",
                """
                SELECT hostname, node, started_at, finished_at, result, problem_type, detail
                FROM certificate_orders WHERE hostname = $1 ORDER BY id DESC LIMIT $2
                """, p)
        ) { r, i in
            CertificateOrderRecord(
                hostname: r.text(i, 0), node: r.text(i, 1), startedAt: r.int(i, 2), finishedAt: r.int(i, 3),
                result: r.text(i, 4), problemType: r.optionalText(i, 5), detail: r.optionalText(i, 6))
        }
    }
}
