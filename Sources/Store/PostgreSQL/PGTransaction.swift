import Model

/// The writer's `StoreTransaction` on PostgreSQL: reads and writes on the writer's
/// connection inside the current batch, so reads see the writes of earlier jobs.
///
/// One instance lives as long as the writer connection; a job must not keep it
/// beyond its body. It records what the batch changed (`invalidations`,
/// `catalogChanged`, `keysChanged`) so the writer can publish cache invalidations
/// after the commit, and the batch's click counts (`counts`, written once per batch).
///
/// Deferred inserts (`deferInserts`, the writer's optimistic pass): the visit path's
/// rows (clicks, handoffs) are held in memory and written by `flushPending` as one
/// multi-row statement per table (`INSERT ... SELECT FROM unnest($1, $2, ...)`), so a
/// batch of 500 visits costs two statements and one round trip instead of 1,000.
/// Every other statement flushes them first (`willQuery`), so reads still see them.
/// A failure of the flushed statement cannot name its job: the writer then runs the
/// batch again with `deferInserts` off, one savepoint per job.
final class PGTransaction: PGQueries, StoreTransaction, WebhookAudienceKeeping {
    /// The batch's time (milliseconds), taken when the batch began.
    private(set) var now: Int64 = 0
    /// Links whose cached answer may be stale after this batch.
    var invalidations: [InvalidationLog.Entry] = []
    /// Domains or apps changed: rebuild the catalog snapshot.
    var catalogChanged = false
    /// Publishable keys changed: bump `publishableKeysVersion` after the commit.
    var keysChanged = false
    /// Click counts of this batch not yet in `click_counts`.
    var counts = ClickCounter()
    /// Hold clicks and handoffs for `flushPending` (see the type's comment).
    var deferInserts = true
    /// Which webhook events this batch's endpoints may want (read at the first event).
    var webhookAudience = WebhookAudience()
    /// The store's webhook wake-up (a fresh one for a transaction outside the store's writer).
    let webhookSignal: WebhookSignal

    init(db: PGConnection, webhookSignal: WebhookSignal = WebhookSignal()) {
        self.webhookSignal = webhookSignal
        super.init(db: db)
    }

    func beginBatch(now: Int64) {
        self.now = now
        invalidations.removeAll(keepingCapacity: true)
        catalogChanged = false
        keysChanged = false
        counts.removeAll()
        discardPending()
        webhookAudience.reset()
    }

    func invalidateAll() {
        invalidations.append(.all)
        catalogChanged = true
        keysChanged = true
    }

    /// Clicks and handoffs held for `flushPending` (deferred inserts), in the order given.
    var pendingClicks: [Click] = []
    var pendingHandoffs: [Handoff] = []
    /// The last eventId and Idempotency-Key (per app) that the idempotency lookup found
    /// free, until the next open event is written: the insert that usually follows in
    /// the same body need not check the other key form again (as `SQLiteTransaction`).
    var unusedKey: (app: String, eventId: String, key: String)?
    /// The time of the clicks `probabilisticCandidates` returned in this batch, by id:
    /// `consumeClick` then names the click's day partition instead of probing them all.
    var candidateTimes: [String: Int64] = [:]

    /// Writes the held clicks and handoffs, then the batch's click counts. Called by
    /// the writer before COMMIT. On failure what was held stays held and the caller
    /// rolls back (then `discardPending`).
    func flushPending() throws(StoreError) {
        try flushRows()
        try flushCounts()
    }

    /// Forgets held rows (the transaction was rolled back). The batch's click counts
    /// are the writer's to keep or drop (`counts`).
    func discardPending() {
        if !pendingClicks.isEmpty { pendingClicks.removeAll(keepingCapacity: true) }
        if !pendingHandoffs.isEmpty { pendingHandoffs.removeAll(keepingCapacity: true) }
        unusedKey = nil
        if !candidateTimes.isEmpty { candidateTimes.removeAll() }
    }

    /// Every statement but the deferred inserts goes after the held rows.
    override func willQuery() throws(StoreError) {
        if !pendingClicks.isEmpty || !pendingHandoffs.isEmpty { try flushRows() }
    }

    override func willReadCounts() throws(StoreError) { try flushCounts() }

    /// Remembers a miss for the insert that follows (`unusedKey`).
    override func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8])
        throws(StoreError) -> OpenEvent?
    {
        let found = try super.openEvent(app: app, eventId: eventId, idempotencyKey: idempotencyKey, keyHash: keyHash)
        unusedKey = found == nil ? (app, eventId, idempotencyKey) : nil
        return found
    }

    // The StoreTransaction methods follow in extensions by concern: PGTransaction+Visits
    // (clicks, handoffs, claims, candidates), +Opens (open events, instances), +Catalog
    // (domains, apps, links, keys, records), +Pending (deferred inserts and counts),
    // +Retention (prune).
}

extension PGTransaction {
    /// A transaction-scoped advisory lock: other edges' writers taking it wait until this
    /// transaction ends.
    func lock(_ lock: StoreLock) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.int(lock.rawValue)
        try db.run("tx_advisory_lock", "SELECT pg_advisory_xact_lock($1)", p)
    }
}
