/// Bounded deletes for retention. Each call removes at most `limit` rows so one
/// prune step never holds the writer for long; `SQLiteStore.prune` repeats them.
extension SQLiteTransaction {
    /// Clicks have no index on `at` alone (one index less on the hottest insert):
    /// pruning walks the app ids with `clicks_app_at` (a `min()` seek per app,
    /// then a range per app), clicks without an app first.
    func deleteClicks(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        var deleted = try db.execute(
            "DELETE FROM clicks WHERE rowid IN (SELECT rowid FROM clicks WHERE app_id IS NULL AND at < ?1 LIMIT ?2)"
        ) { s in
            s.bind(1, cutoff)
            s.bind(2, limit)
        }
        var previous = ""
        while deleted < limit {
            let next = try db.queryFirst("SELECT min(app_id) FROM clicks WHERE app_id > ?1", { $0.bind(1, previous) }) {
                s in s.optionalText(0)
            }
            guard let app = next ?? nil else { break }
            deleted += try db.execute(
                """
                DELETE FROM clicks WHERE rowid IN
                    (SELECT rowid FROM clicks WHERE app_id = ?1 AND at < ?2 LIMIT ?3)
                """
            ) { s in
                s.bind(1, app)
                s.bind(2, cutoff)
                s.bind(3, limit - deleted)
            }
            previous = app
        }
        return deleted
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
