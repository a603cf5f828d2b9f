import Core
import Model
import Synchronization

/// The `Store` on a PostgreSQL server (`BIQLI_EDGE_DATABASE_URL`), beside the embedded
/// `SQLiteStore`: the same protocol, the same caches in front of it (`ReaderCache`,
/// `InvalidationLog`), the same group commit (`PGWriter`), plus what a shared server
/// needs: changes made by other processes arrive by notification
/// (`PGChangeListener`), and an unreachable server makes writes fail fast with
/// `.unavailable` while everything reconnects by itself.
public final class PGStore: Store, Sendable {
    public struct Options: Sendable {
        /// Most jobs in one group-commit transaction.
        public var maxBatchCount = 512
        /// How long the writer may wait for more jobs after the first (microseconds).
        public var maxBatchWaitMicroseconds = 0
        /// Writers, each on a connection and a thread of its own, that run the bodies
        /// given to `writeConcurrently` (the resolver's), beside the writer of everything
        /// else: a resolution is several round trips to the server, so one connection
        /// caps them at about a thousand a second (decision 0023). 0 runs them on the one writer.
        public var concurrentWriters = 4
        /// Links each loop's reader keeps.
        public var linkCacheCapacity = 100_000
        /// The polling fallback of change notifications.
        public var changePollMilliseconds = 1_000
        /// The store's clock (milliseconds since the epoch); tests move it.
        public var clock: @Sendable () -> Int64 = { Int64(Clock.nowMilliseconds()) }
        /// The tests-only schema steps (`BIQLI_EDGE_TEST_EXTRA_MIGRATION`): nil in production.
        public var testMigration: PGTestMigration? = nil
        public init() {}
    }

    public static var supportedSchemaVersion: Int { PGMigrations.latestVersion }

    /// The newest schema version this store knows: `supportedSchemaVersion`, or more with
    /// the tests-only steps (what a node reports in `nodes.schema_version`).
    public var knownSchemaVersion: Int {
        PGMigrations.plan(testMigration: options.testMigration).migrations.last?.version ?? 0
    }

    public let settings: PGConnectionSettings
    public let options: Options
    /// One reader per loop, each used on its loop's thread only (`reader(loop:)`).
    private let readers: PerLoop<PGReader>
    private let writer: PGWriter
    /// `writeConcurrently`'s writers and their shared queue (nil: they go to `writer`).
    private let concurrent: (writers: [PGWriter], queue: WriteQueue)?
    private let listener: PGChangeListener
    private let queue: WriteQueue
    private let log: InvalidationLog
    private let closeState = Mutex(false)

    private init(
        settings: PGConnectionSettings, options: Options, readers: sending [PGReader], writer: PGWriter,
        concurrent: (writers: [PGWriter], queue: WriteQueue)?, listener: PGChangeListener, queue: WriteQueue,
        log: InvalidationLog
    ) {
        self.settings = settings
        self.options = options
        self.readers = PerLoop(values: readers)
        self.writer = writer
        self.concurrent = concurrent
        self.listener = listener
        self.queue = queue
        self.log = log
    }

    deinit { close() }

    /// Connects, migrates the schema (once, whoever else starts at the same time), makes
    /// the partitions of the coming days, and starts the writer and the listener.
    /// `readers`: one per event loop (at least 1).
    public static func open(settings: PGConnectionSettings, readers: Int, options: Options = .init())
        throws(StoreError) -> PGStore
    {
        let writerConnection = try PGConnection.connect(settings)
        let plan = PGMigrations.plan(testMigration: options.testMigration)
        try PGMigrations.apply(on: writerConnection, migrations: plan.migrations, breaking: plan.breaking)
        let now = options.clock()
        try PGPartitions.ensure(
            on: writerConnection, from: now - PGPartitions.dayMilliseconds,
            through: now + PGPartitions.daysAhead * PGPartitions.dayMilliseconds)
        let log = InvalidationLog(catalog: try PGQueries(db: writerConnection).loadCatalog())
        // The loops reconnect by themselves only while the listener reaches the server.
        let serverUp = ServerUpFlag()
        var slots: [PGConnectionSlot] = []
        var loopReaders: [PGReader] = []
        let lastKnown = LastKnownLinks(log: log, capacity: options.linkCacheCapacity)
        for _ in 0..<max(readers, 1) {
            let slot = PGConnectionSlot(settings: settings, serverUp: serverUp.read)
            slots.append(slot)
            loopReaders.append(
                PGReader(
                    connection: try PGConnection.connect(settings), slot: slot, log: log,
                    linkCacheCapacity: options.linkCacheCapacity, lastKnown: lastKnown))
        }
        let queue = WriteQueue(
            maxCount: options.maxBatchCount, maxWait: UInt64(max(options.maxBatchWaitMicroseconds, 0)) * 1_000)
        let writer = PGWriter(webhookSignal: WebhookSignal())
        let invalidate: @Sendable () -> Void = { [queue] in
            _ = queue.enqueue(
                VoidWriteJob(body: { tx in (tx as? PGTransaction)?.invalidateAll() }, completion: { _ in }))
        }
        let listener = PGChangeListener(
            settings: settings, slots: slots, writer: writer, pollMilliseconds: options.changePollMilliseconds,
            onExternalChange: invalidate)
        _ = serverUp.listener.storeIfNil(listener)
        var concurrent: (writers: [PGWriter], queue: WriteQueue)?
        if options.concurrentWriters > 0 {
            let shared = WriteQueue(
                maxCount: options.maxBatchCount, maxWait: UInt64(max(options.maxBatchWaitMicroseconds, 0)) * 1_000)
            var writers: [PGWriter] = []
            for n in 1...options.concurrentWriters {
                let w = PGWriter(webhookSignal: writer.webhookSignal)
                w.start(
                    connection: try PGConnection.connect(settings), settings: settings, queue: shared, log: log,
                    clock: options.clock, name: "store-writer-\(n)")
                writers.append(w)
            }
            concurrent = (writers, shared)
        }
        writer.start(connection: writerConnection, settings: settings, queue: queue, log: log, clock: options.clock)
        listener.start()
        return PGStore(
            settings: settings, options: options, readers: loopReaders, writer: writer, concurrent: concurrent,
            listener: listener, queue: queue, log: log)
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
        if !queue.enqueue(TypedWriteJob(body: body, completion: completion)) { completion(.failure(.closed)) }
    }

    public func write(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        if !queue.enqueue(VoidWriteJob(body: body, completion: completion)) { completion(.failure(.closed)) }
    }

    public func writeConcurrently<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        let target = concurrent?.queue ?? queue
        if !target.enqueue(TypedWriteJob(body: body, completion: completion)) { completion(.failure(.closed)) }
    }

    public func writeConcurrently<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        lockOrder: String?,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        let target = concurrent?.queue ?? queue
        let job = RefusableWriteJob(body: body, completion: completion)
        job.lockOrder = lockOrder
        if !target.enqueue(job) {
            completion(.failure(.store(.closed)))
        }
    }

    public func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T)
        throws(StoreError) -> T
    {
        if isWriterThread {
            throw .backend(code: -1, message: "writeAndWait called on the store's writer thread")
        }
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
        if isWriterThread {
            throw .store(.backend(code: -1, message: "writeAndWait called on the store's writer thread"))
        }
        let waiter = ResultWaiter<T, WriteError<Refusal>>()
        write(refusing: refusing, body) { result in waiter.deliver(result) }
        return try waiter.wait().get()
    }

    /// Retention on a connection of its own (the writer keeps serving), in bounded
    /// steps of their own transactions until nothing is left: whole daily partitions of
    /// clicks and open events first, then the small tables row by row. The coming
    /// days' partitions are made first.
    public func prune(olderThan cutoff: Int64, now: Int64) throws(StoreError) -> Int {
        let db = try PGConnection.connect(settings)
        try PGPartitions.ensure(
            on: db, from: now - PGPartitions.dayMilliseconds,
            through: now + PGPartitions.daysAhead * PGPartitions.dayMilliseconds)
        let tx = PGTransaction(db: db)
        tx.deferInserts = false
        var total = 0
        while true {
            tx.beginBatch(now: now)
            try db.execute("BEGIN")
            let deleted: Int
            do throws(StoreError) {
                deleted = try tx.prune(olderThan: cutoff, now: now)
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
            total += deleted
            if deleted == 0 { return total }
        }
    }

    public func close() {
        let first = closeState.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        _ = queue.close()
        _ = concurrent?.queue.close()
        listener.stop()
        // Closed from a writer's own thread (a completion): no writer is waited for.
        let all = [writer] + (concurrent?.writers ?? [])
        let fromAWriter = all.contains { $0.isWriterThread }
        for w in all {
            if fromAWriter { w.detach() } else { w.join() }
        }
    }

    /// On one of the writers' threads (where waiting for a write would wait for itself).
    private var isWriterThread: Bool {
        writer.isWriterThread || (concurrent?.writers.contains { $0.isWriterThread } ?? false)
    }

    // MARK: beyond the protocol

    /// Whether the writer and the listener are connected now.
    public var isReachable: Bool {
        writer.connected.load(ordering: .acquiring) && listener.connected.load(ordering: .acquiring)
    }

    /// Counters for `/metrics`.
    /// Counters for `/metrics`: every writer's together (the concurrent ones too).
    public var statistics: Statistics {
        let all = [writer] + (concurrent?.writers ?? [])
        func sum(_ load: (PGWriter) -> Int) -> Int { all.reduce(0) { $0 + load($1) } }
        return Statistics(
            batches: sum { $0.batches.load(ordering: .relaxed) }, jobs: sum { $0.jobs.load(ordering: .relaxed) },
            failedJobs: sum { $0.failedJobs.load(ordering: .relaxed) },
            failedCommits: sum { $0.failedCommits.load(ordering: .relaxed) },
            largestBatch: all.map { $0.largestBatch.load(ordering: .relaxed) }.max() ?? 0,
            reconnects: sum { $0.reconnects.load(ordering: .relaxed) },
            externalChanges: listener.externalChanges.load(ordering: .relaxed),
            writerCPUNanoseconds: sum { $0.cpuNanoseconds.load(ordering: .relaxed) }, reachable: isReachable)
    }

    public struct Statistics: Sendable, Equatable {
        public var batches: Int
        public var jobs: Int
        public var failedJobs: Int
        public var failedCommits: Int
        public var largestBatch: Int
        public var reconnects: Int
        public var externalChanges: Int
        public var writerCPUNanoseconds: Int
        public var reachable: Bool
    }
}

/// Whether the listener's connection is up, read by the loops' connection slots (made
/// before the listener, which needs the slots).
private final class ServerUpFlag: Sendable {
    /// Set once, before any loop reads.
    let listener = AtomicLazyReference<PGChangeListener>()

    @Sendable func read() -> Bool { listener.load()?.connected.load(ordering: .acquiring) ?? false }
}
