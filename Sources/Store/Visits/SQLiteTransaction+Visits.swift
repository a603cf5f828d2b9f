import CSQLite
import Model

/// The visit path's writes on SQLite: clicks (counted in memory until the batch's
/// `flushCounts`), handoffs and the resolver's claims on them, through the hot statements.
extension SQLiteTransaction {
    static let insertClickSQL = """
        INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash,
                            os_version, country, variant)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
        """

    func insertClick(_ click: Click) throws(StoreError) {
        try db.executeStatic(hot(.insertClick), arena: arena) { b in
            b.text(1, click.id)
            b.text(2, click.linkId)
            b.text(3, click.appId)
            b.text(4, click.domain)
            b.int(5, click.at)
            b.text(6, click.kind.rawValue)
            b.text(7, click.platform.rawValue)
            b.text(8, click.inAppBrowser)
            if click.dynamic.isEmpty {
                b.null(9)
            } else {
                b.text(9, bytes: encoded(pairs: click.dynamic))
            }
            b.blob(10, click.sourceHash)
            b.text(11, click.osVersion)
            b.text(12, click.country)
            b.int(13, click.variant.map(Int64.init))
        }
        counts.add(click)
        if let appId = click.appId, click.platform == .ios, let hash = click.sourceHash {
            candidates.insert(
                app: appId, domain: click.domain, sourceHash: hash, click: sqlite3_last_insert_rowid(db.handle),
                at: click.at)
        }
    }

    func countPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) throws(StoreError) {
        counts.addPreview(appId: appId, linkId: linkId, platform: platform, at: at)
    }

    static let insertHandoffSQL = """
        INSERT INTO handoffs (token_hash, click_id, app_id, platform, link_id, short_url, route, referral_code,
                              metadata, dynamic, created_at, expires_at, claimed_instance, claimed_open)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
        """

    func insertHandoff(_ handoff: Handoff) throws(StoreError) {
        let snapshot = handoff.snapshot
        try db.executeStatic(hot(.insertHandoff), arena: arena) { b in
            b.blob(1, handoff.tokenHash)
            b.text(2, handoff.clickId)
            b.text(3, handoff.appId)
            b.text(4, handoff.platform.rawValue)
            b.text(5, snapshot.linkId)
            b.text(6, snapshot.shortUrl)
            b.text(7, snapshot.route)
            b.text(8, snapshot.referralCode)
            b.text(9, bytes: snapshot.metadataJSON)
            if snapshot.dynamic.isEmpty {
                b.null(10)
            } else {
                b.text(10, bytes: encoded(pairs: snapshot.dynamic))
            }
            b.int(11, handoff.createdAt)
            b.int(12, handoff.expiresAt)
            b.text(13, handoff.claimedByInstance)
            b.text(14, handoff.claimedByOpen)
        }
    }

    static let claimHandoffSQL = """
        UPDATE handoffs SET claimed_instance = ?2, claimed_open = ?3
        WHERE token_hash = ?1 AND claimed_instance IS NULL
        """
    static let selectHandoffClaim = "SELECT claimed_instance FROM handoffs WHERE token_hash = ?1"

    /// True when the handoff is now (or already was) held by `instance`; false when
    /// another instance holds it or there is no such handoff. The first claim's
    /// `openId` is kept.
    func claimHandoff(tokenHash: [UInt8], instance: String, openId: String) throws(StoreError) -> Bool {
        let changed = try db.execute(Self.claimHandoffSQL) { s in
            s.bind(1, tokenHash)
            s.bind(2, instance)
            s.bind(3, openId)
        }
        if changed == 1 { return true }
        let holder = try db.queryFirst(Self.selectHandoffClaim, { $0.bind(1, tokenHash) }) { s in
            s.optionalText(0)
        }
        return holder == .some(instance)
    }

    /// The resolver's claim: the snapshot and its claim in one read, then the
    /// plain claiming UPDATE when it is valid and unclaimed. (One
    /// `UPDATE ... RETURNING` costs SQLite an ephemeral table per run, about three
    /// times the instructions; an UPDATE with the validity terms in its WHERE
    /// reads the record twice.)
    static let selectHandoffForClaim = """
        SELECT click_id, app_id, platform, link_id, short_url, route, referral_code, metadata, dynamic, created_at,
               expires_at, claimed_instance
        FROM handoffs WHERE token_hash = ?1
        """

    func claimHandoff(
        tokenHash: [UInt8], app: String, platform: Platform, now: Int64, linkId: String?, instance: String,
        openId: String
    ) throws(StoreError) -> HandoffView? {
        let found = try db.queryFirst(Self.selectHandoffForClaim, { $0.bind(1, tokenHash) }) {
            s throws(StoreError) -> HandoffView? in
            guard s.isNull(11), s.int64(10) > now, s.text(1) == app, s.text(2) == platform.rawValue,
                linkId.map({ s.text(3) == $0 }) ?? true
            else { return nil }
            let dynamic =
                s.isNull(8) ? [] : try s.withBytes(8) { b throws(StoreError) in try ModelCodec.decodePairs(b) }
            return HandoffView(
                clickId: s.text(0), appId: app, platform: platform, linkId: s.text(3), shortUrl: s.text(4),
                route: s.text(5), referralCode: s.optionalText(6), metadataJSON: s.blob(7), dynamic: dynamic,
                createdAt: s.int64(9), expiresAt: s.int64(10))
        }
        guard let view = found ?? nil else { return nil }
        let claimed = try db.executeStatic(hot(.claimHandoff), arena: arena) { b in
            b.blob(1, tokenHash)
            b.text(2, instance)
            b.text(3, openId)
        }
        return claimed == 1 ? view : nil
    }

    static let consumeClickSQL =
        "UPDATE clicks SET consumed_by_open = ?2 WHERE rowid = ?1 AND id = ?3 AND consumed_by_open IS NULL"
    /// Without a rowid: a scan of the table (no index on the id, decision 0010).
    static let consumeClickByIdSQL =
        "UPDATE clicks SET consumed_by_open = ?2 WHERE id = ?1 AND consumed_by_open IS NULL"

    /// By the rowid `probabilisticCandidates` found for the click in this transaction,
    /// which is how the resolver gets the clicks it consumes; any other id costs a scan.
    func consumeClick(id: String, openId: String) throws(StoreError) -> Bool {
        if let rowid = candidateRowids[id] {
            return try db.execute(Self.consumeClickSQL) { s in
                s.bind(1, rowid)
                s.bind(2, openId)
                s.bind(3, id)
            } == 1
        }
        return try db.execute(Self.consumeClickByIdSQL) { s in
            s.bind(1, id)
            s.bind(2, openId)
        } == 1
    }
}
