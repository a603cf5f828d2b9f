/// Bounded deletes for retention. Each call removes at most `limit` rows so one
/// prune step never holds the writer for long; `SQLiteStore.prune` repeats them.
extension SQLiteTransaction {
    func deleteClicks(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        try db.execute("DELETE FROM clicks WHERE rowid IN (SELECT rowid FROM clicks WHERE at < ?1 LIMIT ?2)") { s in
            s.bind(1, cutoff)
            s.bind(2, limit)
        }
    }

    func deleteOpenEvents(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        try db.execute(
            "DELETE FROM open_events WHERE rowid IN (SELECT rowid FROM open_events WHERE at < ?1 LIMIT ?2)"
        ) { s in
            s.bind(1, cutoff)
            s.bind(2, limit)
        }
    }

    /// Handoffs whose expiry is at or before `now`: nobody can claim them any more.
    func deleteExpiredHandoffs(now: Int64, limit: Int) throws(StoreError) -> Int {
        try db.execute(
            """
            DELETE FROM handoffs WHERE token_hash IN
                (SELECT token_hash FROM handoffs WHERE expires_at <= ?1 LIMIT ?2)
            """
        ) { s in
            s.bind(1, now)
            s.bind(2, limit)
        }
    }

    func deleteIdempotencyRecords(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        try db.execute(
            """
            DELETE FROM idempotency_records WHERE (scope, key_hash) IN
                (SELECT scope, key_hash FROM idempotency_records WHERE created_at < ?1 LIMIT ?2)
            """
        ) { s in
            s.bind(1, cutoff)
            s.bind(2, limit)
        }
    }
}
