import CSQLite
import Model

/// The writer's `StoreTransaction`: reads and writes on the writer connection
/// inside the current batch, so reads see the writes of earlier jobs.
///
/// One instance lives as long as the writer; a job must not keep it beyond its
/// body. It records what the batch changed so the writer can publish cache
/// invalidations after the commit.
final class SQLiteTransaction: SQLiteQueries, StoreTransaction, WebhookAudienceKeeping {
    /// The batch's time (milliseconds), taken when the batch began.
    private(set) var now: Int64 = 0
    /// Links whose cached answer may be stale after this batch.
    var invalidations: [InvalidationLog.Entry] = []
    /// Domains or apps changed: rebuild the catalog snapshot.
    var catalogChanged = false
    /// Publishable keys changed: bump `publishableKeysVersion` after the commit.
    var keysChanged = false
    /// Click counts of this batch not yet in `click_counts` (written by `flushCounts`).
    var counts = ClickCounter()
    /// The last eventId and Idempotency-Key (per app) that the idempotency lookup found
    /// free, until the next open event is written: the insert that usually follows
    /// in the same body need not look again.
    private var unusedKey: (app: String, eventId: String, key: String)?
    /// The probabilistic candidates of the last hour (decision 0009).
    var candidates: CandidateIndex
    /// The rowids of the clicks `probabilisticCandidates` returned in this batch, by id.
    var candidateRowids: [String: Int64] = [:]
    /// Which webhook events this batch's endpoints may want (read at the first event).
    var webhookAudience = WebhookAudience()

    /// The store's webhook wake-up (a fresh one for a transaction outside the store's writer).
    let webhookSignal: WebhookSignal

    init(db: SQLiteConnection, candidateCapacity: Int, webhookSignal: WebhookSignal = WebhookSignal()) {
        candidates = CandidateIndex(capacity: candidateCapacity)
        self.webhookSignal = webhookSignal
        super.init(db: db)
    }

    func beginBatch(now: Int64) {
        self.now = now
        candidates.age(now: now)
        if !candidateRowids.isEmpty { candidateRowids.removeAll() }
        unusedKey = nil
        invalidations.removeAll(keepingCapacity: true)
        catalogChanged = false
        keysChanged = false
        counts.removeAll()
        webhookAudience.reset()
    }

    func invalidateAll() {
        invalidations.append(.all)
        catalogChanged = true
        keysChanged = true
    }

    // MARK: clicks and handoffs (the visit path)

    static let insertClickSQL = """
        INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash,
                            os_version, country)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
        """

    /// Values of the visit path's inserts (bound without copies by SQLite).
    private let arena = BindArena()

    /// The statements of the hot writes (a visit's, a resolution's).
    private enum Hot: Int, CaseIterable {
        case insertClick, insertHandoff, claimHandoff, insertOpen, upsertInstance

        var sql: String {
            switch self {
            case .insertClick: SQLiteTransaction.insertClickSQL
            case .insertHandoff: SQLiteTransaction.insertHandoffSQL
            case .claimHandoff: SQLiteTransaction.claimHandoffSQL
            case .insertOpen: SQLiteTransaction.insertOpenSQL
            case .upsertInstance: SQLiteTransaction.upsertInstanceSQL
            }
        }
    }

    /// Prepared on first use and kept here (the connection owns and finalizes them):
    /// finding a statement by its SQL text costs a few hundred instructions per use.
    private var hotStatements = [SQLiteStatement?](repeating: nil, count: Hot.allCases.count)

    private func hot(_ which: Hot) throws(StoreError) -> SQLiteStatement {
        if let statement = hotStatements[which.rawValue] { return statement }
        let statement = try db.statement(which.sql)
        hotStatements[which.rawValue] = statement
        return statement
    }
    /// The JSON of the last dynamic values encoded, and those values: a click and its
    /// handoff carry the same ones, so the handoff reuses the click's encoding.
    private var json: [UInt8] = Array("[]".utf8)
    private var jsonPairs: [(String, String)] = []

    private func encoded(pairs: [(String, String)]) -> [UInt8] {
        // The visit path hands a click and its handoff the same array: the same storage
        // holds the same values, without comparing them string by string.
        let sameStorage = pairs.withUnsafeBufferPointer { a in
            jsonPairs.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
        }
        if !sameStorage && !pairs.elementsEqual(jsonPairs, by: ==) {
            json.removeAll(keepingCapacity: true)
            ModelCodec.encode(pairs: pairs, into: &json)
            jsonPairs = pairs
        }
        return json
    }

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

    static let upsertCountSQL = """
        INSERT INTO click_counts (app_id, hour, platform, kind, count) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (app_id, hour, platform, kind) DO UPDATE SET count = count + excluded.count
        """

    static let upsertLinkClickCountSQL = """
        INSERT INTO link_click_counts (link_id, day, platform, kind, in_app_browser, count)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (link_id, day, platform, kind, in_app_browser) DO UPDATE SET count = count + excluded.count
        """
    static let upsertLinkCountryCountSQL = """
        INSERT INTO link_country_counts (link_id, day, country, count) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (link_id, day, country) DO UPDATE SET count = count + excluded.count
        """
    static let upsertLinkReferrerCountSQL = """
        INSERT INTO link_referrer_counts (link_id, day, referrer, count) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (link_id, day, referrer) DO UPDATE SET count = count + excluded.count
        """
    static let upsertLinkOpenCountSQL = """
        INSERT INTO link_open_counts (link_id, day, matched_by, first_open, count) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (link_id, day, matched_by, first_open) DO UPDATE SET count = count + excluded.count
        """

    /// The amount in two columns (`StoredAmount`, schema 15): both low parts are below
    /// 10^18, so their sum fits 64 bits; what passes 10^18 is carried into `amount_high`.
    static let upsertLinkConversionCountSQL = """
        INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount, amount_high)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (link_id, day, type, currency) DO UPDATE SET count = count + excluded.count,
            amount = (amount + excluded.amount) % 1000000000000000000,
            amount_high = amount_high + excluded.amount_high + (amount + excluded.amount) / 1000000000000000000
        """

    /// Adds the pending counts to `click_counts` and the links' daily counts (one
    /// UPSERT per key) and forgets them. Called before COMMIT
    /// and before a read of the counts through this transaction. On failure the counts
    /// stay pending and the caller rolls back.
    func flushCounts() throws(StoreError) {
        if counts.isEmpty { return }
        for (key, count) in counts.entries {
            try db.execute(Self.upsertCountSQL) { s in
                s.bind(1, key.appId)
                s.bind(2, key.hour)
                s.bind(3, key.platform.rawValue)
                s.bind(4, key.kind.rawValue)
                s.bind(5, count)
            }
        }
        for (key, count) in counts.links.clicks {
            try db.execute(Self.upsertLinkClickCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.platform.rawValue)
                s.bind(4, key.kind.rawValue)
                s.bind(5, key.inAppBrowser)
                s.bind(6, count)
            }
        }
        for (key, count) in counts.links.countries {
            try db.execute(Self.upsertLinkCountryCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.country)
                s.bind(4, count)
            }
        }
        for (key, count) in counts.links.referrers {
            try db.execute(Self.upsertLinkReferrerCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.referrer)
                s.bind(4, count)
            }
        }
        for (key, count) in counts.links.opens {
            try db.execute(Self.upsertLinkOpenCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.matchedBy.rawValue)
                s.bind(4, key.firstOpen)
                s.bind(5, count)
            }
        }
        // In key order as on PostgreSQL (one writer here: for symmetry, not for locks).
        for (key, sum) in counts.links.sortedConversions {
            try db.execute(Self.upsertLinkConversionCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.type.rawValue)
                s.bind(4, key.currency)
                let amount = StoredAmount.split(sum.amount)
                s.bind(5, sum.count)
                s.bind(6, amount.low)
                s.bind(7, amount.high)
            }
        }
        counts.removeAll()
    }

    override func willReadCounts() throws(StoreError) { try flushCounts() }

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

    // MARK: opens and instances (the resolver)

    static let insertOpenSQL = """
        INSERT INTO open_events (\(openColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
        """

    /// Without the key text the hash is kept as given (an empty one as none).
    func insertOpenEvent(_ event: OpenEvent) throws(StoreError) {
        let hash = event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 }
        try insertOpen(event, keyColumn: hash)
    }

    override func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8])
        throws(StoreError) -> OpenEvent?
    {
        let found = try super.openEvent(app: app, eventId: eventId, idempotencyKey: idempotencyKey, keyHash: keyHash)
        unusedKey = found == nil ? (app, eventId, idempotencyKey) : nil
        return found
    }

    /// Keeps the hash only when the key is not the eventId (an empty blob marks
    /// that case), after checking that no other event of the app holds the key in
    /// the other form (unless the idempotency lookup just said so); the unique
    /// indexes check the rest.
    func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String) throws(StoreError) {
        if let free = unusedKey, free.app == event.appId, free.eventId == event.eventId, free.key == idempotencyKey {
            unusedKey = nil
            let hash = event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 }
            try insertOpen(event, keyColumn: idempotencyKey == event.eventId ? [] : hash)
            return
        }
        if idempotencyKey == event.eventId {
            if let hash = event.idempotencyKeyHash, !hash.isEmpty,
                try openEvent(app: event.appId, idempotencyKeyHash: hash) != nil
            {
                throw .conflict(.idempotencyKey)
            }
            try insertOpen(event, keyColumn: [])
        } else {
            let holder = try db.queryFirst(
                Self.selectOpenByOwnKey,
                { s in
                    s.bind(1, event.appId)
                    s.bind(2, idempotencyKey)
                }, row: { s in s.int64(12) })
            if holder != nil { throw .conflict(.idempotencyKey) }
            try insertOpen(event, keyColumn: event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    private func insertOpen(_ event: OpenEvent, keyColumn: [UInt8]?) throws(StoreError) {
        unusedKey = nil
        try db.executeStatic(hot(.insertOpen), arena: arena) { b in
            b.text(1, event.id)
            b.text(2, event.appId)
            b.text(3, event.appInstanceId)
            b.text(4, event.eventId)
            b.blob(5, keyColumn)
            b.blob(6, event.requestHash)
            b.text(7, event.platform.rawValue)
            b.text(8, event.matchedBy.rawValue)
            b.int(9, event.firstOpen ? 1 : 0)
            b.text(10, event.sdkVersion)
            b.text(11, event.linkId)
            b.text(12, event.clickId)
            b.int(13, event.at)
            b.blob(14, event.storedResponse)
            b.blob(15, event.receipt)
            b.int(16, event.receiptExpiresAt)
            b.blob(17, event.receiptInput)
        }
        if let linkId = event.linkId {
            counts.links.addOpen(linkId: linkId, at: event.at, matchedBy: event.matchedBy, firstOpen: event.firstOpen)
        }
    }

    /// `created_at` keeps its first value and `first_open_id`, once set, never
    /// changes: the first accepted install attribution is immutable.
    static let upsertInstanceSQL = """
        INSERT INTO app_instances (app_id, instance_id, platform, first_open_id, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (app_id, instance_id) DO UPDATE SET
            platform = excluded.platform,
            first_open_id = coalesce(app_instances.first_open_id, excluded.first_open_id)
        """

    func upsertAppInstance(_ instance: AppInstance) throws(StoreError) {
        try db.executeStatic(hot(.upsertInstance), arena: arena) { b in
            b.text(1, instance.appId)
            b.text(2, instance.instanceId)
            b.text(3, instance.platform.rawValue)
            b.text(4, instance.firstOpenId)
            b.int(5, instance.createdAt)
        }
    }

    /// For tests that need a failure SQLite only reports at COMMIT.
    func executeForTesting(_ sql: String) throws(StoreError) {
        try db.exec(sql)
    }
}
