import Model

/// The operator console's writes, as SQLite's (`SQLiteTransaction+Console`).
extension PGTransaction {
    static let insertConsoleSessionSQL = """
        INSERT INTO console_sessions (token_hash, kind, secret_key_id, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5)
        """
    static let deleteConsoleSessionSQL = """
        DELETE FROM console_sessions WHERE token_hash = $1
        RETURNING token_hash, kind, secret_key_id, created_at, expires_at
        """
    static let deleteExpiredConsoleSessionsSQL = """
        DELETE FROM console_sessions WHERE token_hash = ANY(ARRAY(
            SELECT token_hash FROM console_sessions WHERE expires_at <= $1 LIMIT $2))
        """

    /// A token is 32 random bytes: a hash that is already there is a broken generator,
    /// refused as a conflict rather than replaced.
    func putConsoleSession(_ session: ConsoleSession) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 5)
        p.bytes(session.tokenHash)
        p.text(session.kind.rawValue)
        p.text(session.secretKeyId)
        p.int(session.createdAt)
        p.int(session.expiresAt)
        try db.run("pgt_insert_console_session", Self.insertConsoleSessionSQL, p)
    }

    func deleteConsoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession? {
        try willQuery()
        var p = PGParams()
        p.bytes(tokenHash)
        return try Self.first(
            db.run("pgt_delete_console_session", Self.deleteConsoleSessionSQL, p), Self.decodeConsoleSession)
    }

    func deleteExpiredConsoleSessions(now: Int64, limit: Int) throws(StoreError) -> Int {
        var p = PGParams()
        p.int(now)
        p.int(Int64(limit))
        return try db.run("pgt_prune_console_sessions", Self.deleteExpiredConsoleSessionsSQL, p).affectedRows
    }
}
