import Model

/// Version 3: `clicks` becomes a rowid table with no index (decision 0010).
///
/// Keyed by its time-ordered text id, the table was a `WITHOUT ROWID` B-tree that
/// grew at its end; SQLite rebalances such a tree by redistributing three sibling
/// pages (`balance_nonroot`), which left the last page half empty and ran again
/// after a few more clicks: 13.5 % of the writer's instructions per visit write.
/// A rowid table grows with `balance_quick` instead. Nothing on the hot paths looks
/// a click up by its id: the probabilistic candidates are found by rowid (the
/// writer's `CandidateIndex` keeps it), retention and the start-up load walk the
/// rowid order, which is the order clicks were written.
///
/// The rows are copied in id order, so rowid order stays time order for them too.
enum SchemaV3 {
    static let sql = """
        CREATE TABLE clicks_v3 (
            id TEXT NOT NULL,
            link_id TEXT NOT NULL,
            app_id TEXT,
            domain TEXT NOT NULL,
            at INTEGER NOT NULL,
            kind TEXT NOT NULL,
            platform TEXT NOT NULL,
            in_app_browser TEXT,
            dynamic TEXT,
            source_hash BLOB,
            os_version TEXT,
            consumed_by_open TEXT
        );
        INSERT INTO clicks_v3 (id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash,
                               os_version, consumed_by_open)
            SELECT id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash, os_version,
                   consumed_by_open
            FROM clicks ORDER BY id;
        DROP TABLE clicks;
        ALTER TABLE clicks_v3 RENAME TO clicks;
        """
}
