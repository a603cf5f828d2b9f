import Core
import Model
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The embedded `Store`: one SQLite file in WAL mode, one writer thread with
/// group commit, one reader (connection + caches) per event loop.
///
/// ```swift
/// let store = try SQLiteStore.open(dataDirectory: dir, readers: loops)
/// store.write({ tx in try tx.insertClick(click); try tx.insertHandoff(handoff) }) { result in
///     // on the writer thread, after the commit: hop back to the loop and answer
/// }
/// let link = try store.reader(loop: i).link(host: host, key: key)
/// ```
public final class SQLiteStore: Store, Sendable {
    /// The file name inside the data directory.
    public static let fileName = "edge.sqlite3"
    /// The schema version this binary writes; newer files are refused.
    public static var supportedSchemaVersion: Int { Migrations.latestVersion }

    public let path: String
    public let options: Options
    /// One reader per loop, each used on its loop's thread only (`reader(loop:)`).
    private let readers: PerLoop<SQLiteReader>
    private let queue: WriteQueue
    private let writer: SQLiteWriter
    private let checkpointer: Checkpointer?
    let log: InvalidationLog
    private let stopped = Atomic<Bool>(false)
    /// Database files found readable by group or others at open and made 0600 (path,
    /// previous mode): the caller says so.
    public let filesMadePrivate: [(path: String, mode: UInt32)]

    private init(
        path: String, options: Options, readers: sending [SQLiteReader], writer: SQLiteWriter, queue: WriteQueue,
        log: InvalidationLog, checkpointer: Checkpointer?, filesMadePrivate: [(path: String, mode: UInt32)]
    ) {
        self.checkpointer = checkpointer
        self.path = path
        self.options = options
        self.readers = PerLoop(values: readers)
        self.writer = writer
        self.queue = queue
        self.log = log
        self.filesMadePrivate = filesMadePrivate
    }

    deinit { close() }

    /// Opens (creating if needed) `<dataDirectory>/edge.sqlite3`; creates the directory.
    public static func open(dataDirectory: String, readers: Int, options: Options = .init()) throws(StoreError)
        -> SQLiteStore
    {
        if mkdir(dataDirectory, 0o700) != 0 && errno != EEXIST {
            throw .backend(code: errno, message: "cannot create the data directory")
        }
        return try open(path: dataDirectory + "/" + fileName, readers: readers, options: options)
    }

    /// Opens (creating if needed) the database file at `path`, applies pending
    /// migrations, and starts the writer. `readers`: one per event loop (at least 1).
    public static func open(path: String, readers: Int, options: Options = .init()) throws(StoreError)
        -> SQLiteStore
    {
        let madePrivate = try DatabaseFileModes.makePrivate(
            databasePath: path, tightenExisting: options.makeFilesPrivate)
        let db = try SQLiteConnection.open(
            path: path, create: true, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
            cacheKiB: options.writerCacheKiB, queryOnly: false,
            vfs: options.coalesceWALWrites && CoalescingVFS.isRegistered ? CoalescingVFS.name : nil)
        // Only a file without tables takes a page size (before WAL mode is set).
        try db.exec("PRAGMA page_size = \(options.pageSize)")
        let mode = try db.queryFirst("PRAGMA journal_mode = WAL") { s in s.text(0) }
        guard mode?.lowercased() == "wal" else {
            throw .backend(code: 1, message: "cannot switch the database to WAL mode")
        }
        try db.exec("PRAGMA journal_size_limit = \(max(options.walSizeLimitBytes, 0))")
        try Migrations.apply(on: db)
        var checkpointer: Checkpointer?
        var checkpointerConnection: SQLiteConnection?
        if options.backgroundCheckpoint {
            checkpointerConnection = try Checkpointer.connect(path: path, options: options)
            let c = Checkpointer(thresholdPages: options.walCheckpointPages, resetPages: options.walResetPages)
            c.attach(to: db)
            checkpointer = c
        } else {
            try db.exec("PRAGMA wal_autocheckpoint = \(max(options.walCheckpointPages, 0))")
        }

        // Only to read the first catalog; the writer makes its own transaction.
        let writerTransaction = SQLiteTransaction(db: db, candidateCapacity: 0)
        let log = InvalidationLog(
            catalog: try writerTransaction.loadCatalog(), capacity: options.invalidationLogCapacity)
        var loopReaders: [SQLiteReader] = []
        for _ in 0..<max(readers, 1) {
            let connection = try SQLiteConnection.open(
                path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
                cacheKiB: options.readerCacheKiB, queryOnly: true)
            loopReaders.append(
                SQLiteReader(db: connection, log: log, linkCacheCapacity: options.linkCacheCapacity))
        }
        let queue = WriteQueue(
            maxCount: options.maxBatchCount, maxWait: UInt64(max(options.maxBatchWaitMicroseconds, 0)) * 1_000)
        let writer = SQLiteWriter(webhookSignal: WebhookSignal())
        try writer.start(db: db, queue: queue, log: log, checkpointer: checkpointer, options: options)
        if let checkpointer, let checkpointerConnection { checkpointer.start(on: checkpointerConnection) }
        return SQLiteStore(
            path: path, options: options, readers: loopReaders, writer: writer, queue: queue, log: log,
            checkpointer: checkpointer, filesMadePrivate: madePrivate)
    }

    // MARK: Store

    public var publishableKeysVersion: UInt64 { log.keysVersion.load(ordering: .acquiring) }

    public var readerCount: Int { readers.count }

    /// Raised when a write puts rows in the outbox: the delivery threads of this store wait on it.
    public var webhookSignal: WebhookSignal { writer.webhookSignal }

    public func reader(loop: Int) -> any StoreReader {
        precondition(loop >= 0 && loop < readers.count, "no reader for loop \(loop)")
        return readers.value(loop)
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        if !queue.enqueue(TypedWriteJob(body: body, completion: completion)) {
            completion(.failure(.closed))
        }
    }

    public func write(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        if !queue.enqueue(VoidWriteJob(body: body, completion: completion)) {
            completion(.failure(.closed))
        }
    }

    public func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T)
        throws(StoreError) -> T
    {
        if writer.isWriterThread { throw Self.waitOnWriter }
        let waiter = ResultWaiter<T, StoreError>()
        write(body) { result in waiter.deliver(result) }
        return try waiter.wait().get()
    }

    public func write<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        if !queue.enqueue(RefusableWriteJob(body: body, completion: completion)) {
            completion(.failure(.store(.closed)))
        }
    }

    public func writeAndWait<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type, _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) throws(WriteError<Refusal>) -> T {
        if writer.isWriterThread { throw .store(Self.waitOnWriter) }
        let waiter = ResultWaiter<T, WriteError<Refusal>>()
        write(refusing: refusing, body) { result in waiter.deliver(result) }
        return try waiter.wait().get()
    }

    /// Copies the WAL into the file and empties it (`wal_checkpoint(TRUNCATE)`), on a
    /// connection of its own: after secrets stored as such were sealed (decision 0031), so
    /// that no page of the file or frame of the WAL keeps them. False when a reader held
    /// the WAL meanwhile (nothing is lost: the checkpointer copies it later).
    public func truncateWAL() throws(StoreError) -> Bool {
        let db = try SQLiteConnection.open(
            path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, cacheKiB: 256,
            queryOnly: false)
        defer { db.close() }
        return try db.queryFirst("PRAGMA wal_checkpoint(TRUNCATE)", row: { $0.int(0) }) == 0
    }

    /// A completion (or a body) waiting for a later batch would wait for itself.
    private static let waitOnWriter = StoreError.backend(
        code: -1, message: "writeAndWait called on the store's writer thread")

    /// Deletes, through the writer and at most `options.pruneBatchSize` rows per
    /// transaction: clicks (by their time, oldest written first), hourly click counts, the
    /// links' daily counts of days wholly before `olderThan`, open
    /// events and management idempotency records older than `olderThan`, and
    /// handoffs expired at `now` (see `deleteExpiredHandoffs`). Blocks the caller
    /// (a background thread) until done; the hot path only ever waits for one
    /// small delete batch.
    public func prune(olderThan cutoff: Int64, now: Int64) throws(StoreError) -> Int {
        let limit = max(options.pruneBatchSize, 1)
        var total = 0
        for step in PruneStep.allCases {
            while true {
                let deleted = try writeAndWait { tx in
                    let tx = tx as! SQLiteTransaction
                    switch step {
                    case .clicks: return try tx.deleteClicks(before: cutoff, limit: limit)
                    case .clickCounts: return try tx.deleteClickCounts(before: cutoff, limit: limit)
                    case .linkCounts: return try tx.deleteLinkCounts(before: cutoff, limit: limit)
                    case .openEvents: return try tx.deleteOpenEvents(before: cutoff, limit: limit)
                    case .handoffs: return try tx.deleteExpiredHandoffs(now: now, limit: limit)
                    case .idempotencyRecords: return try tx.deleteIdempotencyRecords(before: cutoff, limit: limit)
                    case .consoleSessions: return try tx.deleteExpiredConsoleSessions(now: now, limit: limit)
                    case .webhooks: return try tx.pruneWebhookRows(before: cutoff, limit: limit)
                    }
                }
                total += deleted
                // Clicks go by the window of the oldest `limit` rows, which newer ones can
                // share: only an empty step means none is left.
                if step == .clicks ? deleted == 0 : deleted < limit { break }
            }
        }
        return total
    }

    public func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = queue.close()
        // Called from a completion (or the last reference dropped there): the
        // writer drains and stops by itself; it cannot wait for itself, so nothing
        // will join it.
        guard !writer.isWriterThread else {
            writer.detach()
            return
        }
        writer.join()
    }

    private enum PruneStep: CaseIterable, Sendable {
        case clicks, clickCounts, linkCounts, openEvents, handoffs, idempotencyRecords, consoleSessions, webhooks
    }

    // MARK: beyond the protocol

    /// `PRAGMA integrity_check` and `foreign_key_check` on a separate connection:
    /// an empty list when the file is sound, else SQLite's findings (for `check`
    /// and the crash test). Reads the whole file: not for the hot path.
    public func integrityCheck() throws(StoreError) -> [String] {
        let db = try SQLiteConnection.open(
            path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, cacheKiB: 2_048,
            queryOnly: true)
        defer { db.close() }
        var problems = try db.queryAll("PRAGMA integrity_check") { s in s.text(0) }.filter { $0 != "ok" }
        problems += try db.queryAll("PRAGMA foreign_key_check") { s in
            "foreign key: \(s.text(0)) row \(s.int64(1)) -> \(s.text(2))"
        }
        return problems
    }

    /// Every click id in the file, on a separate connection (the crash test's check:
    /// clicks have no index on their id, decision 0010, so one pass beats a lookup each).
    public func allClickIds() throws(StoreError) -> Set<String> {
        let db = try SQLiteConnection.open(
            path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, cacheKiB: 2_048,
            queryOnly: true)
        defer { db.close() }
        var ids = Set<String>()
        try db.forEachRow("SELECT id FROM clicks") { s in
            ids.insert(s.text(0))
            return true
        }
        return ids
    }

    /// Counters of the writer (batches, jobs, failures, largest batch).
    public var statistics: Statistics {
        Statistics(
            batches: writer.batches.load(ordering: .relaxed), jobs: writer.jobs.load(ordering: .relaxed),
            failedJobs: writer.failedJobs.load(ordering: .relaxed),
            failedCommits: writer.failedCommits.load(ordering: .relaxed),
            largestBatch: writer.largestBatch.load(ordering: .relaxed),
            checkpoints: checkpointer?.checkpoints.load(ordering: .relaxed) ?? 0,
            walResets: checkpointer?.resets.load(ordering: .relaxed) ?? 0,
            writerCPUNanoseconds: writer.cpuNanoseconds.load(ordering: .relaxed),
            probabilisticCandidates: writer.candidateCount.load(ordering: .relaxed),
            candidatesDroppedAtCapacity: writer.candidatesDropped.load(ordering: .relaxed))
    }
}
