import Model

/// The operator console's reads, as SQLite's (`SQLiteQueries+Console`), on schema 6.
extension PGQueries {
    /// `links_key` (key, id): the range in the index's order, no sort.
    static let selectLinksByKeyPrefix = """
        SELECT \(linkColumns) FROM links
        WHERE key >= $1 AND key < $3 AND (key > $1 OR id > $2) ORDER BY key, id LIMIT $4
        """
    /// `links_domain_key` (domain, key): one domain's keys in order (a key once per domain).
    static let selectLinksOfDomainByKeyPrefix = """
        SELECT \(linkColumns) FROM links
        WHERE domain = $5 AND key >= $1 AND key < $3 AND (key > $1 OR id > $2) ORDER BY key LIMIT $4
        """
    /// Partitions by time, newest first, each through `clicks_link` backwards: stops at the
    /// limit (ties of one millisecond sorted by id as they come).
    static let selectLinkRecentClicks = """
        SELECT \(clickColumns) FROM clicks WHERE link_id = $1 ORDER BY at DESC, id COLLATE "C" DESC LIMIT $2
        """
    static let selectRecentLinkOpens = """
        SELECT \(openColumns) FROM open_events e WHERE e.link_id = $1
        ORDER BY e.at DESC, e.id COLLATE "C" DESC LIMIT $2
        """
    /// One day at a time, each its own statement, as on SQLite.
    static let selectClicksOfDayByLink = """
        SELECT link_id, sum(count)::bigint FROM link_click_counts WHERE day = $1 GROUP BY link_id
        """
    static let selectOpensOfDay = """
        SELECT coalesce(sum(count), 0)::bigint,
               coalesce(sum(count) FILTER (WHERE first_open AND matched_by <> 'none'), 0)::bigint
        FROM link_open_counts WHERE day = $1
        """
    /// The amounts added as `numeric` (exact, any size), then split again into the two
    /// 64-bit parts `StoredAmount` joins (decision 0029).
    static let selectConversionsOfDay = """
        SELECT type, currency, count, div(amount, 1000000000000000000)::bigint, mod(amount, 1000000000000000000)::bigint
        FROM (
            SELECT type, currency, sum(count)::bigint AS count,
                   sum(amount_high)::numeric * 1000000000000000000 + sum(amount) AS amount
            FROM link_conversion_counts WHERE day = $1 GROUP BY type, currency
        ) AS sums
        """
    static let selectConsoleSession = """
        SELECT s.token_hash, s.kind, s.secret_key_id, s.created_at, s.expires_at
        FROM console_sessions s JOIN secret_keys k ON k.id = s.secret_key_id
        WHERE s.token_hash = $1 AND k.revoked_at IS NULL
        """

    func searchLinks(keyPrefix: String, domain: String?, after: (key: String, id: String)?, limit: Int)
        throws(StoreError) -> [Link]
    {
        guard limit > 0 else { return [] }
        try willQuery()
        let range = LinkKeyRange(prefix: keyPrefix, after: after)
        var p = PGParams()
        p.text(range.lowerKey)
        p.text(range.lowerId)
        p.text(range.upperKey)
        p.int(Int64(limit))
        guard let domain else {
            return try Self.all(db.run("pgq_links_key_prefix", Self.selectLinksByKeyPrefix, p), Self.decodeLink)
        }
        p.text(domain)
        return try Self.all(
            db.run("pgq_links_domain_key_prefix", Self.selectLinksOfDomainByKeyPrefix, p), Self.decodeLink)
    }

    func recentClicks(link: String, limit: Int) throws(StoreError) -> [Click] {
        try willQuery()
        var p = PGParams()
        p.text(link)
        p.int(Int64(limit))
        return try Self.all(db.run("pgq_link_recent_clicks", Self.selectLinkRecentClicks, p), Self.decodeClick)
    }

    func recentOpenEvents(link: String, limit: Int) throws(StoreError) -> [OpenEvent] {
        try willQuery()
        var p = PGParams()
        p.text(link)
        p.int(Int64(limit))
        return try Self.all(db.run("pgq_link_recent_opens", Self.selectRecentLinkOpens, p), Self.decodeOpen)
    }

    func workspaceActivity(fromDay: Int64, throughDay: Int64, topLinks: Int) throws(StoreError) -> WorkspaceActivity {
        try willQuery()
        try willReadCounts()
        var tally = WorkspaceActivity.Tally()
        guard fromDay <= throughDay else { return tally.result(topLinks: topLinks) }
        for day in fromDay...throughDay {
            var p = PGParams()
            p.int(day)
            let links = try Self.all(db.run("pgq_day_clicks_by_link", Self.selectClicksOfDayByLink, p)) { r, i in
                (r.text(i, 0), Int(r.int(i, 1)))
            }
            let openRow = try db.run("pgq_day_opens", Self.selectOpensOfDay, p)
            let (opens, installs) = (openRow.int(0, 0), openRow.int(0, 1))
            let conversions = try Self.all(db.run("pgq_day_conversions", Self.selectConversionsOfDay, p)) { r, i in
                (
                    type: r.text(i, 0), currency: r.text(i, 1), count: Int(r.int(i, 2)),
                    amount: StoredAmount.join(high: r.int(i, 3), low: r.int(i, 4))
                )
            }
            tally.add(
                day: day, clicksByLink: links, opens: Int(opens), installs: Int(installs), conversions: conversions)
        }
        return tally.result(topLinks: topLinks)
    }

    func consoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession? {
        try willQuery()
        var p = PGParams()
        p.bytes(tokenHash)
        return try Self.first(db.run("pgq_console_session", Self.selectConsoleSession, p), Self.decodeConsoleSession)
    }

    static func decodeConsoleSession(_ r: PGResult, _ i: Int) throws(StoreError) -> ConsoleSession {
        guard let kind = ConsoleSession.Kind(rawValue: r.text(i, 1)) else {
            throw ModelCodec.corrupt("console_sessions.kind")
        }
        return ConsoleSession(
            tokenHash: r.bytes(i, 0), kind: kind, secretKeyId: r.text(i, 2), createdAt: r.int(i, 3),
            expiresAt: r.int(i, 4))
    }
}
