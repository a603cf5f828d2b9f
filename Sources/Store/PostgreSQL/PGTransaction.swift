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
final class PGTransaction: PGQueries, StoreTransaction {
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

    func beginBatch(now: Int64) {
        self.now = now
        invalidations.removeAll(keepingCapacity: true)
        catalogChanged = false
        keysChanged = false
        counts.removeAll()
        discardPending()
    }

    func invalidateAll() {
        invalidations.append(.all)
        catalogChanged = true
        keysChanged = true
    }

    /// Writes the held clicks and handoffs, then the batch's click counts.
    func flushPending() throws(StoreError) { fatalError("PGTransaction: not implemented yet") }

    /// Forgets held rows (the transaction was rolled back).
    func discardPending() {}

    // The StoreTransaction methods follow in extensions by concern (PGTransaction+*.swift).
    func insertClick(_ click: Click) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func insertHandoff(_ handoff: Handoff) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func claimHandoff(tokenHash: [UInt8], instance: String, openId: String) throws(StoreError) -> Bool {
        fatalError("PGTransaction: not implemented yet")
    }
    func consumeClick(id: String, openId: String) throws(StoreError) -> Bool {
        fatalError("PGTransaction: not implemented yet")
    }
    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click] { fatalError("PGTransaction: not implemented yet") }
    func insertOpenEvent(_ event: OpenEvent) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func upsertAppInstance(_ instance: AppInstance) throws(StoreError) {
        fatalError("PGTransaction: not implemented yet")
    }
    func putDomain(_ domain: Domain) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func deleteDomain(_ hostname: String) throws(StoreError) -> Bool {
        fatalError("PGTransaction: not implemented yet")
    }
    func putApp(_ app: MobileApp) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func deleteApp(_ id: String) throws(StoreError) -> Bool { fatalError("PGTransaction: not implemented yet") }
    func putLink(_ link: Link) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func deleteLink(id: String) throws(StoreError) -> Bool { fatalError("PGTransaction: not implemented yet") }
    func putSecretKey(_ key: SecretKeyRecord) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func putPublishableKey(_ key: PublishableKeyRecord) throws(StoreError) {
        fatalError("PGTransaction: not implemented yet")
    }
    func putSigningKey(_ key: SigningKeyRecord) throws(StoreError) { fatalError("PGTransaction: not implemented yet") }
    func putIdempotencyRecord(_ record: IdempotencyRecord) throws(StoreError) {
        fatalError("PGTransaction: not implemented yet")
    }

    /// Deletes what retention says is old: whole partitions of clicks and open events
    /// before `olderThan` (PGPartitions), and row by row the open-event keys, click counts,
    /// expired handoffs and management idempotency records. Returns rows and partitions deleted.
    func prune(olderThan: Int64, now: Int64) throws(StoreError) -> Int {
        fatalError("PGTransaction: not implemented yet")
    }
}
