import Core
import Model

/// Bounded deletes for retention. Each call removes at most `limit` rows so one
/// prune step never holds the writer for long; `SQLiteStore.prune` repeats them.
///
/// None of them needs an index of its own (decisions 0007, 0008 and 0010): clicks
/// are in the order they were written, handoffs keyed by a time-ordered key, counts
/// by app first, and open events go through the `(app_id, at)` index analytics need.
extension SQLiteTransaction {
    /// The clicks older than `cutoff` among the first `limit` in rowid order (the order
    /// they were written): a step reads at most `limit` rows, however large the table
    /// (it has no index on the time, decision 0010), and a click dated out of order
    /// (a clock that jumped) is skipped rather than holding the others back.
    static let deleteOldClicksSQL = """
        DELETE FROM clicks WHERE rowid IN (
            SELECT rowid FROM (SELECT rowid, at FROM clicks ORDER BY rowid LIMIT ?2) WHERE at < ?1)
        """

    func deleteClicks(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        try db.execute(Self.deleteOldClicksSQL) { s in
            s.bind(1, cutoff)
            s.bind(2, limit)
        }
    }

    /// Hourly click counts of hours that ended by `cutoff`. The key starts with the
    /// app: a `min()` seek finds each app, then a range per app (few apps).
    static let selectNextCountedApp = "SELECT min(app_id) FROM click_counts WHERE app_id > ?1"
    static let selectOldCounts =
        "SELECT app_id, hour, platform, kind FROM click_counts WHERE app_id = ?1 AND hour < ?2 LIMIT ?3"

    func deleteClickCounts(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        let hour = ClickCounter.hour(cutoff)
        var deleted = 0
        var previous = ""
        while deleted < limit {
            let next = try db.queryFirst(Self.selectNextCountedApp, { $0.bind(1, previous) }) { s in
                s.optionalText(0)
            }
            guard let app = next ?? nil else { break }
            deleted += try db.execute(
                "DELETE FROM click_counts WHERE (app_id, hour, platform, kind) IN (\(Self.selectOldCounts))"
            ) { s in
                s.bind(1, app)
                s.bind(2, hour)
                s.bind(3, limit - deleted)
            }
            previous = app
        }
        return deleted
    }

    /// The links' daily counts of days wholly before `cutoff` (the day that holds it
    /// stays, as its clicks partly do), through the `day` indexes.
    static let selectOldLinkClickCounts =
        "SELECT link_id, day, platform, kind, in_app_browser FROM link_click_counts WHERE day < ?1 LIMIT ?2"
    static let selectOldLinkCountryCounts =
        "SELECT link_id, day, country FROM link_country_counts WHERE day < ?1 LIMIT ?2"
    static let selectOldLinkReferrerCounts =
        "SELECT link_id, day, referrer FROM link_referrer_counts WHERE day < ?1 LIMIT ?2"
    static let selectOldLinkOpenCounts =
        "SELECT link_id, day, matched_by, first_open FROM link_open_counts WHERE day < ?1 LIMIT ?2"
    static let selectOldLinkVariantCounts =
        "SELECT link_id, day, variant FROM link_variant_counts WHERE day < ?1 LIMIT ?2"

    /// The deletes of the link counts' old rows, one table after the other.
    static let deleteOldLinkCounts = [
        """
        DELETE FROM link_click_counts WHERE (link_id, day, platform, kind, in_app_browser) IN
            (\(selectOldLinkClickCounts))
        """,
        "DELETE FROM link_country_counts WHERE (link_id, day, country) IN (\(selectOldLinkCountryCounts))",
        "DELETE FROM link_referrer_counts WHERE (link_id, day, referrer) IN (\(selectOldLinkReferrerCounts))",
        "DELETE FROM link_open_counts WHERE (link_id, day, matched_by, first_open) IN (\(selectOldLinkOpenCounts))",
        "DELETE FROM link_variant_counts WHERE (link_id, day, variant) IN (\(selectOldLinkVariantCounts))",
    ]

    func deleteLinkCounts(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        let day = LinkCounter.day(cutoff)
        var deleted = 0
        for sql in Self.deleteOldLinkCounts where deleted < limit {
            deleted += try db.execute(sql) { s in
                s.bind(1, day)
                s.bind(2, limit - deleted)
            }
        }
        return deleted
    }

    /// Open events before `cutoff`, app by app through `open_events_app_at` (the
    /// same `min()` seek per app as the counts): exact, and bounded by what goes.
    static let selectNextOpenApp = "SELECT min(app_id) FROM open_events WHERE app_id > ?1"
    static let selectOldOpens = "SELECT rowid FROM open_events WHERE app_id = ?1 AND at < ?2 LIMIT ?3"

    func deleteOpenEvents(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        var deleted = 0
        var previous = ""
        while deleted < limit {
            let next = try db.queryFirst(Self.selectNextOpenApp, { $0.bind(1, previous) }) { s in
                s.optionalText(0)
            }
            guard let app = next ?? nil else { break }
            deleted += try db.execute("DELETE FROM open_events WHERE rowid IN (\(Self.selectOldOpens))") { s in
                s.bind(1, app)
                s.bind(2, cutoff)
                s.bind(3, limit - deleted)
            }
            previous = app
        }
        return deleted
    }

    /// Handoffs whose expiry is at or before `now`: nobody can claim them any more.
    ///
    /// Keys start with the creation time (`HandoffKey`), and a handoff lives at
    /// most its app's `handoff_lifetime_seconds`, so every handoff made before
    /// `now - longest lifetime` has expired, save those made under a longer
    /// lifetime since lowered: the range below that time, checked against
    /// `expires_at`, holds what can go. Handoffs of apps with a shorter lifetime
    /// than the longest wait until they leave that window. Keys at or above the
    /// time prefix of `now` cannot be time-ordered keys (made later than now):
    /// they are random keys of older tokens, checked against `expires_at` too.
    static let selectExpiredOldHandoffs =
        "SELECT token_hash FROM handoffs WHERE token_hash < ?1 AND expires_at <= ?2 LIMIT ?3"
    static let selectExpiredRandomHandoffs =
        "SELECT token_hash FROM handoffs WHERE token_hash >= ?1 AND expires_at <= ?2 LIMIT ?3"

    func deleteExpiredHandoffs(now: Int64, limit: Int) throws(StoreError) -> Int {
        let longest = try db.integer("SELECT coalesce(max(handoff_lifetime_seconds), 0) FROM mobile_apps")
        let old = HandoffKey.timePrefix(milliseconds: now - longest * 1_000)
        var deleted = try db.execute("DELETE FROM handoffs WHERE token_hash IN (\(Self.selectExpiredOldHandoffs))") {
            s in
            s.bind(1, old)
            s.bind(2, now)
            s.bind(3, limit)
        }
        if deleted < limit {
            deleted += try db.execute(
                "DELETE FROM handoffs WHERE token_hash IN (\(Self.selectExpiredRandomHandoffs))"
            ) { s in
                s.bind(1, HandoffKey.timePrefix(milliseconds: now))
                s.bind(2, now)
                s.bind(3, limit - deleted)
            }
        }
        return deleted
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
