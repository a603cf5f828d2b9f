import Model

/// The operator console's writes: sessions and one-time sign-in links.
extension SQLiteTransaction {
    static let insertConsoleSessionSQL = """
        INSERT INTO console_sessions (token_hash, kind, secret_key_id, created_at, expires_at)
        VALUES (?1, ?2, ?3, ?4, ?5)
        """
    static let deleteConsoleSessionSQL = """
        DELETE FROM console_sessions WHERE token_hash = ?1
        RETURNING token_hash, kind, secret_key_id, created_at, expires_at
        """

    /// A token is 32 random bytes: a hash that is already there is a broken generator,
    /// refused as a conflict rather than replaced.
    func putConsoleSession(_ session: ConsoleSession) throws(StoreError) {
        try db.execute(Self.insertConsoleSessionSQL) { s in
            s.bind(1, session.tokenHash)
            s.bind(2, session.kind.rawValue)
            s.bind(3, session.secretKeyId)
            s.bind(4, session.createdAt)
            s.bind(5, session.expiresAt)
        }
    }

    func deleteConsoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession? {
        try db.queryFirst(Self.deleteConsoleSessionSQL, { $0.bind(1, tokenHash) }, row: Self.decodeConsoleSession)
    }

    static let deleteExpiredConsoleSessionsSQL = """
        DELETE FROM console_sessions WHERE token_hash IN
            (SELECT token_hash FROM console_sessions WHERE expires_at <= ?1 LIMIT ?2)
        """

    func deleteExpiredConsoleSessions(now: Int64, limit: Int) throws(StoreError) -> Int {
        try db.execute(Self.deleteExpiredConsoleSessionsSQL) { s in
            s.bind(1, now)
            s.bind(2, limit)
        }
    }
}
