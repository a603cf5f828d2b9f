import Model

/// The operator console's reads: link search, a link's newest clicks and open events,
/// the workspace's activity, sessions (schema 7).
extension SQLiteQueries {
    /// `links_key` (key, id): the range in the index's order, no sort.
    static let selectLinksByKeyPrefix = """
        SELECT \(linkColumns) FROM links
        WHERE key >= ?1 AND key < ?3 AND (key > ?1 OR id > ?2) ORDER BY key, id LIMIT ?4
        """
    /// The domain and key unique index: one domain's keys in order (a key once per domain).
    static let selectLinksOfDomainByKeyPrefix = """
        SELECT \(linkColumns) FROM links
        WHERE domain = ?5 AND key >= ?1 AND key < ?3 AND (key > ?1 OR id > ?2) ORDER BY key LIMIT ?4
        """
    /// `clicks_link` (link_id, at) holds the rowid last: the newest are its last entries,
    /// ties in the order they were written (PostgreSQL breaks them by id).
    static let selectLinkRecentClicks =
        "SELECT \(clickColumns) FROM clicks WHERE link_id = ?1 ORDER BY at DESC, rowid DESC LIMIT ?2"
    static let selectRecentLinkOpens =
        "SELECT \(openColumns) FROM open_events WHERE link_id = ?1 ORDER BY at DESC, rowid DESC LIMIT ?2"
    /// One day at a time (`link_click_counts_day` holds the link after the day: grouped as
    /// read), each its own short read, so that a long count never holds one snapshot.
    static let selectClicksOfDayByLink = """
        SELECT link_id, sum(count) FROM link_click_counts WHERE day = ?1 GROUP BY link_id
        """
    /// The day's opens, and its installs: first opens with a match.
    static let selectOpensOfDay = """
        SELECT coalesce(sum(count), 0), coalesce(sum(CASE WHEN first_open AND matched_by <> 'none' THEN count END), 0)
        FROM link_open_counts WHERE day = ?1
        """
    /// The day's rows, added up in Swift (`WorkspaceActivity.Tally`, 128 bits): SQLite's
    /// `sum()` of 64-bit integers fails past 2^63 - 1 ("integer overflow"), which ten
    /// links' sums of a currency can reach (decision 0029).
    static let selectConversionsOfDay = """
        SELECT type, currency, count, amount, amount_high FROM link_conversion_counts WHERE day = ?1
        """
    static let consoleSessionColumns = "s.token_hash, s.kind, s.secret_key_id, s.created_at, s.expires_at"
    static let selectConsoleSession = """
        SELECT \(consoleSessionColumns) FROM console_sessions s JOIN secret_keys k ON k.id = s.secret_key_id
        WHERE s.token_hash = ?1 AND k.revoked_at IS NULL
        """

    func searchLinks(keyPrefix: String, domain: String?, after: (key: String, id: String)?, limit: Int)
        throws(StoreError) -> [Link]
    {
        guard limit > 0 else { return [] }
        let range = LinkKeyRange(prefix: keyPrefix, after: after)
        let sql = domain == nil ? Self.selectLinksByKeyPrefix : Self.selectLinksOfDomainByKeyPrefix
        return try db.queryAll(
            sql,
            { s in
                s.bind(1, range.lowerKey)
                s.bind(2, range.lowerId)
                s.bind(3, range.upperKey)
                s.bind(4, limit)
                if let domain { s.bind(5, domain) }
            }, row: Self.decodeLink)
    }

    func recentClicks(link: String, limit: Int) throws(StoreError) -> [Click] {
        try db.queryAll(
            Self.selectLinkRecentClicks,
            { s in
                s.bind(1, link)
                s.bind(2, limit)
            }, row: Self.decodeClick)
    }

    func recentOpenEvents(link: String, limit: Int) throws(StoreError) -> [OpenEvent] {
        try db.queryAll(
            Self.selectRecentLinkOpens,
            { s in
                s.bind(1, link)
                s.bind(2, limit)
            }, row: Self.decodeOpen)
    }

    func workspaceActivity(fromDay: Int64, throughDay: Int64, topLinks: Int) throws(StoreError) -> WorkspaceActivity {
        try willReadCounts()
        var tally = WorkspaceActivity.Tally()
        guard fromDay <= throughDay else { return tally.result(topLinks: topLinks) }
        for day in fromDay...throughDay {
            let links = try db.queryAll(Self.selectClicksOfDayByLink, { $0.bind(1, day) }) { s in
                (s.text(0), s.int(1))
            }
            let (opens, installs) =
                try db.queryFirst(Self.selectOpensOfDay, { $0.bind(1, day) }) { s in (s.int(0), s.int(1)) } ?? (0, 0)
            let conversions = try db.queryAll(Self.selectConversionsOfDay, { $0.bind(1, day) }) { s in
                (
                    type: s.text(0), currency: s.text(1), count: s.int(2),
                    amount: StoredAmount.join(high: s.int64(4), low: s.int64(3))
                )
            }
            tally.add(day: day, clicksByLink: links, opens: opens, installs: installs, conversions: conversions)
        }
        return tally.result(topLinks: topLinks)
    }

    func consoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession? {
        try db.queryFirst(Self.selectConsoleSession, { $0.bind(1, tokenHash) }, row: Self.decodeConsoleSession)
    }

    static func decodeConsoleSession(_ s: SQLiteStatement) throws(StoreError) -> ConsoleSession {
        guard let kind = ConsoleSession.Kind(rawValue: s.text(1)) else {
            throw ModelCodec.corrupt("console_sessions.kind")
        }
        return ConsoleSession(
            tokenHash: s.blob(0), kind: kind, secretKeyId: s.text(2), createdAt: s.int64(3), expiresAt: s.int64(4))
    }
}
