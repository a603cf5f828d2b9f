import Model

/// Retention on PostgreSQL: clicks and open events go by whole days (their
/// partitions, `PGPartitions.dropBefore`), the rest row by row in bounded deletes.
///
/// A day's partition goes once the whole day is before the cutoff, so an event or a
/// click stays up to a day longer than in SQLite (the contract allows it:
/// `Store.prune`). Open-event keys go with their events' days, so an event that is
/// still stored is still found by its eventId and its key.
extension PGTransaction {
    /// Rows per table and call: one call never holds the writer for long.
    static let pruneBatchSize = 1_000

    /// One bounded step: returns the partitions dropped, or else the rows deleted (at
    /// most `pruneBatchSize` per table). The store calls it again, each time in a new
    /// transaction, until it returns 0. A step that drops partitions does nothing else,
    /// so the lock the DDL takes on `clicks` and `open_events` is held only briefly.
    func prune(olderThan: Int64, now: Int64) throws(StoreError) -> Int {
        try prune(olderThan: olderThan, now: now, limit: Self.pruneBatchSize)
    }

    func prune(olderThan cutoff: Int64, now: Int64, limit: Int) throws(StoreError) -> Int {
        try willQuery()
        let limit = max(limit, 1)
        let dropped = try PGPartitions.dropBefore(cutoff, on: db)
        if dropped > 0 { return dropped }
        let firstKeptDay = PGPartitions.day(of: cutoff) * PGPartitions.dayMilliseconds
        var deleted = try deleteOpenEventKeys(before: firstKeptDay, limit: limit)
        deleted += try deleteClickCounts(before: cutoff, limit: limit)
        deleted += try deleteLinkCounts(before: cutoff, limit: limit)
        deleted += try deleteExpiredHandoffs(now: now, limit: limit)
        deleted += try deleteIdempotencyRecords(before: cutoff, limit: limit)
        deleted += try deleteExpiredConsoleSessions(now: now, limit: limit)
        deleted += try pruneWebhookRows(before: cutoff, limit: limit)
        return deleted
    }

    /// Keys of events dated before `before` (through `open_event_keys_at`).
    static let deleteOldOpenKeysSQL = """
        DELETE FROM open_event_keys WHERE ctid = ANY(ARRAY(SELECT ctid FROM open_event_keys WHERE at < $1 LIMIT $2))
        """

    func deleteOpenEventKeys(before: Int64, limit: Int) throws(StoreError) -> Int {
        var p = PGParams()
        p.int(before)
        p.int(Int64(limit))
        return try db.run("pgt_prune_open_keys", Self.deleteOldOpenKeysSQL, p).affectedRows
    }

    /// Hourly click counts of hours that ended by `cutoff`. The key starts with the
    /// app: a `min()` seek finds each app, then a range per app (few apps), as in SQLite.
    static let selectNextCountedApp = "SELECT min(app_id) FROM click_counts WHERE app_id > $1"
    static let deleteOldCountsSQL = """
        DELETE FROM click_counts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM click_counts WHERE app_id = $1 AND hour < $2 LIMIT $3))
        """

    func deleteClickCounts(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        let hour = ClickCounter.hour(cutoff)
        var deleted = 0
        var previous = ""
        while deleted < limit {
            var next = PGParams()
            next.text(previous)
            let rows = try db.run("pgt_prune_next_counted_app", Self.selectNextCountedApp, next)
            guard rows.rowCount == 1, let app = rows.optionalText(0, 0) else { break }
            var p = PGParams()
            p.text(app)
            p.int(hour)
            p.int(Int64(limit - deleted))
            deleted += try db.run("pgt_prune_counts", Self.deleteOldCountsSQL, p).affectedRows
            previous = app
        }
        return deleted
    }

    /// The links' daily counts of days wholly before `cutoff` (through the `day` indexes).
    static let deleteOldLinkClickCountsSQL = """
        DELETE FROM link_click_counts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM link_click_counts WHERE day < $1 LIMIT $2))
        """
    static let deleteOldLinkCountryCountsSQL = """
        DELETE FROM link_country_counts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM link_country_counts WHERE day < $1 LIMIT $2))
        """
    static let deleteOldLinkReferrerCountsSQL = """
        DELETE FROM link_referrer_counts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM link_referrer_counts WHERE day < $1 LIMIT $2))
        """
    static let deleteOldLinkOpenCountsSQL = """
        DELETE FROM link_open_counts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM link_open_counts WHERE day < $1 LIMIT $2))
        """
    static let deleteOldLinkVariantCountsSQL = """
        DELETE FROM link_variant_counts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM link_variant_counts WHERE day < $1 LIMIT $2))
        """

    func deleteLinkCounts(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        var p = PGParams()
        p.int(LinkCounter.day(cutoff))
        p.int(Int64(limit))
        var deleted = try db.run("pgt_prune_link_clicks", Self.deleteOldLinkClickCountsSQL, p).affectedRows
        for (name, sql) in [
            ("pgt_prune_link_countries", Self.deleteOldLinkCountryCountsSQL),
            ("pgt_prune_link_referrers", Self.deleteOldLinkReferrerCountsSQL),
            ("pgt_prune_link_opens", Self.deleteOldLinkOpenCountsSQL),
            ("pgt_prune_link_variants", Self.deleteOldLinkVariantCountsSQL),
        ] where deleted < limit {
            var q = PGParams()
            q.int(LinkCounter.day(cutoff))
            q.int(Int64(limit - deleted))
            deleted += try db.run(name, sql, q).affectedRows
        }
        return deleted
    }

    /// Handoffs whose expiry is at or before `now`, found as SQLite finds them
    /// (`SQLiteTransaction.deleteExpiredHandoffs`): time-ordered keys made before
    /// `now - longest lifetime`, then keys that cannot be time-ordered (at or above the
    /// time prefix of `now`), each checked against `expires_at`. Never one before its expiry.
    static let deleteExpiredOldHandoffsSQL = """
        DELETE FROM handoffs WHERE token_hash = ANY(ARRAY(
            SELECT token_hash FROM handoffs WHERE token_hash < $1 AND expires_at <= $2 LIMIT $3))
        """
    static let deleteExpiredRandomHandoffsSQL = """
        DELETE FROM handoffs WHERE token_hash = ANY(ARRAY(
            SELECT token_hash FROM handoffs WHERE token_hash >= $1 AND expires_at <= $2 LIMIT $3))
        """
    static let selectLongestLifetime = "SELECT coalesce(max(handoff_lifetime_seconds), 0)::bigint FROM mobile_apps"

    func deleteExpiredHandoffs(now: Int64, limit: Int) throws(StoreError) -> Int {
        let longest = try db.run("pgt_prune_longest_lifetime", Self.selectLongestLifetime).int(0, 0)
        var p = PGParams()
        p.bytes(HandoffKey.timePrefix(milliseconds: now - longest * 1_000))
        p.int(now)
        p.int(Int64(limit))
        var deleted = try db.run("pgt_prune_old_handoffs", Self.deleteExpiredOldHandoffsSQL, p).affectedRows
        if deleted < limit {
            var q = PGParams()
            q.bytes(HandoffKey.timePrefix(milliseconds: now))
            q.int(now)
            q.int(Int64(limit - deleted))
            deleted += try db.run("pgt_prune_random_handoffs", Self.deleteExpiredRandomHandoffsSQL, q).affectedRows
        }
        return deleted
    }

    static let deleteOldIdempotencyRecordsSQL = """
        DELETE FROM idempotency_records WHERE (scope, key_hash) IN
            (SELECT scope, key_hash FROM idempotency_records WHERE created_at < $1 LIMIT $2)
        """

    func deleteIdempotencyRecords(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        var p = PGParams()
        p.int(cutoff)
        p.int(Int64(limit))
        return try db.run("pgt_prune_idempotency", Self.deleteOldIdempotencyRecordsSQL, p).affectedRows
    }
}
