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
    var unusedKey: (app: String, eventId: String, key: String)?
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

    // MARK: the hot statements, shared by the visits' and the opens' writes
    // (`Visits/SQLiteTransaction+Visits.swift`, `Opens/SQLiteTransaction+Opens.swift`)

    /// Values of the visit path's inserts (bound without copies by SQLite).
    let arena = BindArena()

    /// The statements of the hot writes (a visit's, a resolution's).
    enum Hot: Int, CaseIterable {
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
    var hotStatements = [SQLiteStatement?](repeating: nil, count: Hot.allCases.count)

    func hot(_ which: Hot) throws(StoreError) -> SQLiteStatement {
        if let statement = hotStatements[which.rawValue] { return statement }
        let statement = try db.statement(which.sql)
        hotStatements[which.rawValue] = statement
        return statement
    }
    /// The JSON of the last dynamic values encoded, and those values: a click and its
    /// handoff carry the same ones, so the handoff reuses the click's encoding.
    var json: [UInt8] = Array("[]".utf8)
    var jsonPairs: [(String, String)] = []

    func encoded(pairs: [(String, String)]) -> [UInt8] {
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

    // MARK: overrides of the reads (in the class's body: an extension cannot override)

    override func willReadCounts() throws(StoreError) { try flushCounts() }

    override func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8])
        throws(StoreError) -> OpenEvent?
    {
        let found = try super.openEvent(app: app, eventId: eventId, idempotencyKey: idempotencyKey, keyHash: keyHash)
        unusedKey = found == nil ? (app, eventId, idempotencyKey) : nil
        return found
    }

    /// For tests that need a failure SQLite only reports at COMMIT.
    func executeForTesting(_ sql: String) throws(StoreError) {
        try db.exec(sql)
    }
}
