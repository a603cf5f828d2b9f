import Model

/// The visit path's writes (clicks, handoffs, preview counts) and what the resolver
/// does with them (claims, probabilistic candidates, consumption).
extension PGTransaction {
    static let insertClickSQL = """
        INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash,
                            os_version, country, variant)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
        """
    static let insertHandoffSQL = """
        INSERT INTO handoffs (token_hash, click_id, app_id, platform, link_id, short_url, route, referral_code,
                              metadata, dynamic, created_at, expires_at, claimed_instance, claimed_open)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
        """

    /// Held for `flushPending` when `deferInserts`, else written now. Counted in
    /// `counts` (written once per batch): its link's day always, its app's hour when it has one.
    func insertClick(_ click: Click) throws(StoreError) {
        if deferInserts {
            pendingClicks.append(click)
        } else {
            try willQuery()
            var p = PGParams(capacity: 13)
            p.text(click.id)
            p.text(click.linkId)
            p.text(click.appId)
            p.text(click.domain)
            p.int(click.at)
            p.text(click.kind.rawValue)
            p.text(click.platform.rawValue)
            p.text(click.inAppBrowser)
            p.text(bytes: Self.encodedDynamic(click.dynamic))
            p.bytes(click.sourceHash)
            p.text(click.osVersion)
            p.text(click.country)
            p.int(click.variant.map(Int64.init))
            try db.run("pgt_insert_click", Self.insertClickSQL, p)
        }
        counts.add(click)
    }

    func countPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) throws(StoreError) {
        counts.addPreview(appId: appId, linkId: linkId, platform: platform, at: at)
    }

    /// Held for `flushPending` when `deferInserts`, else written now.
    func insertHandoff(_ handoff: Handoff) throws(StoreError) {
        if deferInserts {
            pendingHandoffs.append(handoff)
            return
        }
        try willQuery()
        let s = handoff.snapshot
        var p = PGParams(capacity: 14)
        p.bytes(handoff.tokenHash)
        p.text(handoff.clickId)
        p.text(handoff.appId)
        p.text(handoff.platform.rawValue)
        p.text(s.linkId)
        p.text(s.shortUrl)
        p.text(s.route)
        p.text(s.referralCode)
        p.text(bytes: s.metadataJSON)
        p.text(bytes: Self.encodedDynamic(s.dynamic))
        p.int(handoff.createdAt)
        p.int(handoff.expiresAt)
        p.text(handoff.claimedByInstance)
        p.text(handoff.claimedByOpen)
        try db.run("pgt_insert_handoff", Self.insertHandoffSQL, p)
    }

    // MARK: claims

    static let claimHandoffSQL = """
        UPDATE handoffs SET claimed_instance = $2, claimed_open = $3
        WHERE token_hash = $1 AND claimed_instance IS NULL
        """
    static let selectHandoffClaim = "SELECT claimed_instance FROM handoffs WHERE token_hash = $1"

    /// True when the handoff is now (or already was) held by `instance`; false when
    /// another instance holds it or there is no such handoff. The first claim's
    /// `openId` is kept.
    func claimHandoff(tokenHash: [UInt8], instance: String, openId: String) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.bytes(tokenHash)
        p.text(instance)
        p.text(openId)
        if try db.run("pgt_claim_handoff", Self.claimHandoffSQL, p).affectedRows == 1 { return true }
        var q = PGParams()
        q.bytes(tokenHash)
        let holder = try db.run("pgt_handoff_claim", Self.selectHandoffClaim, q)
        return holder.rowCount == 1 && holder.optionalText(0, 0) == instance
    }

    /// The resolver's claim in one statement: the row is bound only when every
    /// condition holds, and the winner of two concurrent claims (two edges) is the
    /// one whose UPDATE found `claimed_instance` still NULL.
    static let claimValidHandoffSQL = """
        UPDATE handoffs SET claimed_instance = $2, claimed_open = $3
        WHERE token_hash = $1 AND claimed_instance IS NULL AND app_id = $4 AND platform = $5 AND expires_at > $6
          AND ($7::text IS NULL OR link_id = $7)
        RETURNING click_id, link_id, short_url, route, referral_code, metadata, dynamic, created_at, expires_at
        """

    func claimHandoff(
        tokenHash: [UInt8], app: String, platform: Platform, now: Int64, linkId: String?, instance: String,
        openId: String
    ) throws(StoreError) -> HandoffView? {
        try willQuery()
        var p = PGParams(capacity: 7)
        p.bytes(tokenHash)
        p.text(instance)
        p.text(openId)
        p.text(app)
        p.text(platform.rawValue)
        p.int(now)
        p.text(linkId)
        let rows = try db.run("pgt_claim_valid_handoff", Self.claimValidHandoffSQL, p)
        guard rows.rowCount == 1 else { return nil }
        let dynamic =
            rows.isNull(0, 6) ? [] : try rows.withBytes(0, 6) { b throws(StoreError) in try ModelCodec.decodePairs(b) }
        return HandoffView(
            clickId: rows.text(0, 0), appId: app, platform: platform, linkId: rows.text(0, 1),
            shortUrl: rows.text(0, 2), route: rows.text(0, 3), referralCode: rows.optionalText(0, 4),
            metadataJSON: rows.bytes(0, 5), dynamic: dynamic, createdAt: rows.int(0, 7), expiresAt: rows.int(0, 8))
    }

    // MARK: probabilistic matching

    /// The partial index `clicks_candidates` (app, hash, at) of each day from `since`.
    /// Several edges share the table, so unlike SQLite (decision 0009) the question
    /// goes to the table, not to the writer's memory.
    static let selectCandidatesSQL = """
        SELECT \(clickColumns) FROM clicks
        WHERE app_id = $1 AND source_hash = $2 AND at >= $3 AND consumed_by_open IS NULL AND source_hash IS NOT NULL
          AND domain = $4 AND platform = 'ios' AND ($5::text IS NULL OR os_version = $5)
        ORDER BY at DESC, id COLLATE "C" DESC LIMIT $6
        """

    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click] {
        guard limit > 0 else { return [] }
        try willQuery()
        var p = PGParams(capacity: 6)
        p.text(app)
        p.bytes(sourceHash)
        p.int(since)
        p.text(domain)
        p.text(osVersion)
        p.int(Int64(limit))
        let found = try Self.all(db.run("pgt_candidates", Self.selectCandidatesSQL, p), Self.decodeClick)
        for click in found { candidateTimes[click.id] = click.at }
        return found
    }

    static let consumeClickAtSQL =
        "UPDATE clicks SET consumed_by_open = $2 WHERE id = $1 AND at = $3 AND consumed_by_open IS NULL"
    /// Without the time: every day's partition is probed (`clicks_id`).
    static let consumeClickSQL = "UPDATE clicks SET consumed_by_open = $2 WHERE id = $1 AND consumed_by_open IS NULL"

    /// By the time `probabilisticCandidates` found for the click in this batch (its
    /// day's partition only), which is how the resolver gets the clicks it consumes.
    func consumeClick(id: String, openId: String) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.text(id)
        p.text(openId)
        if let at = candidateTimes[id] {
            p.int(at)
            return try db.run("pgt_consume_click_at", Self.consumeClickAtSQL, p).affectedRows == 1
        }
        return try db.run("pgt_consume_click", Self.consumeClickSQL, p).affectedRows == 1
    }
}
