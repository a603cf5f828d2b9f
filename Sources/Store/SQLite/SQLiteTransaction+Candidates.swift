/// Probabilistic candidates through the writer's `CandidateIndex` (decision 0009).
///
/// The index names the clicks to look at; each is then read by its primary key
/// with the whole candidate condition, so ids of rolled-back or consumed clicks
/// that the index still holds are never returned, and reads see this batch's writes.
extension SQLiteTransaction {
    static let selectCandidate = """
        SELECT \(clickColumns) FROM clicks
        WHERE id = ?1 AND app_id = ?2 AND domain = ?3 AND source_hash = ?4 AND at >= ?5
          AND consumed_by_open IS NULL AND platform = 'ios'
        """

    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click] {
        guard limit > 0 else { return [] }
        var found: [Click] = []
        var seen = Set<String>()
        // Newest first in the order the clicks were written; an id can be there twice
        // when an optimistic pass ran its job again.
        for id in candidates.candidates(app: app, domain: domain, sourceHash: sourceHash, since: since)
        where seen.insert(id).inserted {
            let click = try db.queryFirst(
                Self.selectCandidate,
                { s in
                    s.bind(1, id)
                    s.bind(2, app)
                    s.bind(3, domain)
                    s.bind(4, sourceHash)
                    s.bind(5, since)
                }, row: Self.decodeClick)
            guard let click, osVersion == nil || click.osVersion == osVersion else { continue }
            found.append(click)
            if found.count == limit { break }
        }
        return found.sorted { $0.at > $1.at }
    }

    /// iOS clicks of the index's horizon that may still be candidates: a range of the
    /// time-ordered click ids, read when the store opens.
    static let selectRecentCandidates = """
        SELECT id, app_id, domain, source_hash, at FROM clicks
        WHERE id >= ?1 AND at >= ?2 AND platform = 'ios' AND app_id IS NOT NULL AND source_hash IS NOT NULL
          AND consumed_by_open IS NULL
        ORDER BY id
        """

    func loadCandidates(now: Int64) throws(StoreError) {
        let cutoff = now - candidates.horizonMilliseconds
        let rows = try db.queryAll(
            Self.selectRecentCandidates,
            { s in
                s.bind(1, Self.clickIdFloor(milliseconds: cutoff))
                s.bind(2, cutoff)
            },
            row: { s in (id: s.text(0), app: s.text(1), domain: s.text(2), hash: s.blob(3), at: s.int64(4)) })
        for r in rows { candidates.insert(app: r.app, domain: r.domain, sourceHash: r.hash, clickId: r.id, at: r.at) }
    }
}
