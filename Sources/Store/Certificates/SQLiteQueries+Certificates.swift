/// Reads of ACME's tables (decision 0017).
extension SQLiteQueries {
    static let certificateColumns = """
        hostname, status, chain_pem, key_pem, not_before, not_after, issuer, renewal_at, renewal_info_check_at,
        last_error_type, last_error_detail, failures, next_attempt_at, lease_node, lease_until, updated_at
        """
    static let selectStoredCertificates = "SELECT \(certificateColumns) FROM certificates ORDER BY hostname"
    static let selectStoredCertificate = "SELECT \(certificateColumns) FROM certificates WHERE hostname = ?1"

    static func decodeStoredCertificate(_ s: SQLiteStatement) -> StoredCertificate {
        StoredCertificate(
            hostname: s.text(0), status: StoredCertificate.Status(rawValue: s.text(1)) ?? .pending,
            chainPEM: s.optionalText(2), keyPEM: s.optionalText(3), notBefore: s.optionalInt64(4),
            notAfter: s.optionalInt64(5), issuer: s.optionalText(6), renewalAt: s.optionalInt64(7),
            renewalInfoCheckAt: s.optionalInt64(8), lastErrorType: s.optionalText(9),
            lastErrorDetail: s.optionalText(10), failures: s.int(11), nextAttemptAt: s.optionalInt64(12),
            leaseNode: s.optionalText(13), leaseUntil: s.optionalInt64(14), updatedAt: s.int64(15))
    }

    func storedCertificates() throws(StoreError) -> [StoredCertificate] {
        try db.queryAll(Self.selectStoredCertificates, row: Self.decodeStoredCertificate)
    }

    func storedCertificate(hostname: String) throws(StoreError) -> StoredCertificate? {
        try db.queryFirst(Self.selectStoredCertificate, { $0.bind(1, hostname) }, row: Self.decodeStoredCertificate)
    }

    func acmeAccount(directoryURL: String) throws(StoreError) -> ACMEAccountRecord? {
        try db.queryFirst(
            "SELECT directory_url, key_pem, account_url, created_at FROM acme_accounts WHERE directory_url = ?1",
            { $0.bind(1, directoryURL) }
        ) { s in
            ACMEAccountRecord(
                directoryURL: s.text(0), keyPEM: s.text(1), accountURL: s.optionalText(2), createdAt: s.int64(3))
        }
    }

    func acmeChallenges() throws(StoreError) -> [ACMEChallengeRecord] {
        try db.queryAll(
            "SELECT token, hostname, kind, key_authorization, expires_at FROM acme_challenges ORDER BY token"
        ) { s in
            ACMEChallengeRecord(
                token: s.text(0), hostname: s.text(1), kind: ACMEChallengeRecord.Kind(rawValue: s.text(2)) ?? .http01,
                keyAuthorization: s.text(3), expiresAt: s.int64(4))
        }
    }

    func certificatesVersion() throws(StoreError) -> Int64 {
        try db.queryFirst("SELECT version FROM acme_state WHERE id = 1") { $0.int64(0) } ?? 0
    }

    func certificateOrders(hostname: String, limit: Int) throws(StoreError) -> [CertificateOrderRecord] {
        try db.queryAll(
            """
            SELECT hostname, node, started_at, finished_at, result, problem_type, detail
            FROM certificate_orders WHERE hostname = ?1 ORDER BY id DESC LIMIT ?2
            """,
            { s in
                s.bind(1, hostname)
                s.bind(2, limit)
            }
        ) { s in
            CertificateOrderRecord(
                hostname: s.text(0), node: s.text(1), startedAt: s.int64(2), finishedAt: s.int64(3), result: s.text(4),
                problemType: s.optionalText(5), detail: s.optionalText(6))
        }
    }
}
