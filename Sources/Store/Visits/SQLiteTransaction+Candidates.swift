import Model

/// Probabilistic candidates through the writer's `CandidateIndex` (decision 0009).
///
/// The index names the clicks to look at; each is then read by its primary key
/// with the whole candidate condition, so ids of rolled-back or consumed clicks
/// that the index still holds are never returned, and reads see this batch's writes.
extension SQLiteTransaction {
    static let selectCandidate = """
        SELECT \(clickColumns) FROM clicks
        WHERE rowid = ?1 AND app_id = ?2 AND domain = ?3 AND source_hash = ?4 AND at >= ?5
          AND consumed_by_open IS NULL AND platform = 'ios'
        """

    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click] {
        guard limit > 0 else { return [] }
        var found: [Click] = []
        var seen = Set<Int64>()
        // Newest first in the order the clicks were written; a rowid can be there twice
        // when an optimistic pass ran its job again (or a rolled-back click's rowid was
        // given to a later click: the row check below decides).
        for rowid in candidates.candidates(app: app, domain: domain, sourceHash: sourceHash, since: since)
        where seen.insert(rowid).inserted {
            let click = try db.queryFirst(
                Self.selectCandidate,
                { s in
                    s.bind(1, rowid)
                    s.bind(2, app)
                    s.bind(3, domain)
                    s.bind(4, sourceHash)
                    s.bind(5, since)
                }, row: Self.decodeClick)
            guard let click, osVersion == nil || click.osVersion == osVersion else { continue }
            candidateRowids[click.id] = rowid
            found.append(click)
            if found.count == limit { break }
        }
        return found.sorted { $0.at > $1.at }
    }

    /// The newest clicks first, in rowid order, which is the order they were written:
    /// read at start until a click older than the index's horizon (less a minute for
    /// clicks written out of time order) shows up.
    static let selectRecentClicks = """
        SELECT rowid, at, platform, app_id, domain, source_hash, consumed_by_open FROM clicks ORDER BY rowid DESC
        """

    func loadCandidates(now: Int64) throws(StoreError) {
        let cutoff = now - candidates.horizonMilliseconds
        var recent: [(rowid: Int64, app: String, domain: String, hash: [UInt8], at: Int64)] = []
        try db.forEachRow(Self.selectRecentClicks) { s in
            let at = s.int64(1)
            if at < cutoff - 60_000 { return false }
            if at >= cutoff, s.text(2) == VisitorPlatform.ios.rawValue, let app = s.optionalText(3),
                let hash = s.optionalBlob(5), s.isNull(6)
            {
                recent.append((s.int64(0), app, s.text(4), hash, at))
            }
            return true
        }
        // Oldest first, as they were written.
        for r in recent.reversed() {
            candidates.insert(app: r.app, domain: r.domain, sourceHash: r.hash, click: r.rowid, at: r.at)
        }
    }
}
