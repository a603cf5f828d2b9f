import Core
import Model
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL writer thread's own state and work (`PGWriter`): its connection and
/// transaction (nil while disconnected), the reconnection backoff, the batches. Made by
/// `PGWriter.start` and handed whole to the new thread: not `Sendable`, so nothing else
/// can hold it.
final class PGWriterLoop {
    private let writer: PGWriter
    private let settings: PGConnectionSettings
    private let queue: WriteQueue
    private let log: InvalidationLog
    private let clock: @Sendable () -> Int64
    /// Nil while disconnected.
    private var db: PGConnection?
    private var transaction: PGTransaction?
    private var nextAttempt: UInt64 = 0
    private var backoff: UInt64 = PGWriter.minimumBackoff

    init(
        connection: PGConnection, writer: PGWriter, settings: PGConnectionSettings, queue: WriteQueue,
        log: InvalidationLog, clock: @escaping @Sendable () -> Int64
    ) {
        self.writer = writer
        self.settings = settings
        self.queue = queue
        self.log = log
        self.clock = clock
        adopt(connection)
    }

    private func adopt(_ connection: PGConnection) {
        db = connection
        transaction = PGTransaction(db: connection, webhookSignal: writer.webhookSignal)
        backoff = PGWriter.minimumBackoff
        writer.backendPID.store(connection.backendPID, ordering: .releasing)
        writer.connected.store(true, ordering: .releasing)
    }

    private func disconnect() {
        db = nil
        transaction = nil
        writer.connected.store(false, ordering: .releasing)
        nextAttempt = Clock.monotonicNanoseconds() &+ backoff
    }

    /// The transaction when connected; else one connection attempt when its wait is over.
    private func usableTransaction() -> PGTransaction? {
        if let db, db.isAlive(), let transaction { return transaction }
        if db != nil { disconnect() }
        let now = Clock.monotonicNanoseconds()
        guard now >= nextAttempt else { return nil }
        do throws(StoreError) {
            adopt(try PGConnection.connect(settings))
            writer.reconnects.add(1, ordering: .relaxed)
            // What others changed meanwhile the listener finds by the change counters; the
            // loops' caches stay, so that visits keep answering while the server is shaky.
            return transaction
        } catch {
            backoff = min(backoff * 2, PGWriter.maximumBackoff)
            nextAttempt = now &+ backoff
            return nil
        }
    }

    func run() {
        var batch: [WriteJob] = []
        batch.reserveCapacity(queue.maxCount)
        loop: while true {
            switch queue.next(into: &batch, idleTimeout: 1_000_000_000) {
            case .closed: break loop
            case .idle: _ = usableTransaction()
            case .jobs:
                execute(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        db = nil
        transaction = nil
    }

    // MARK: a batch

    private func execute(_ batch: [WriteJob]) {
        writer.batches.add(1, ordering: .relaxed)
        writer.jobs.add(batch.count, ordering: .relaxed)
        if batch.count > writer.largestBatch.load(ordering: .relaxed) {
            writer.largestBatch.store(batch.count, ordering: .relaxed)
        }
        if let tx = usableTransaction() {
            run(batch, in: tx)
        } else {
            // Failing fast keeps visitors going (durable visits answer without a token), but
            // writes that are tried again at once (clicks) would spin: a short pause paces them.
            usleep(PGWriter.disconnectedPauseMicroseconds)
            let error = StoreError.unavailable("the PostgreSQL server cannot be reached; retrying")
            for job in batch { job.fail(error) }
        }
        var failed = 0
        for job in batch where !job.succeeded { failed += 1 }
        for job in batch { job.complete() }
        if failed > 0 { writer.failedJobs.add(failed, ordering: .relaxed) }
        var cpu = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
        writer.cpuNanoseconds.store(cpu.tv_sec * 1_000_000_000 + cpu.tv_nsec, ordering: .relaxed)
    }

    private func run(_ batch: [WriteJob], in first: PGTransaction) {
        let now = clock()
        var pending = Self.inLockOrder(batch)
        var retries = 0
        var optimistic = true
        var tx = first
        var reconnected = false
        while !pending.isEmpty {
            tx.beginBatch(now: now)
            let outcome = optimistic && retries < 2 ? runOptimistic(pending, tx) : runWithSavepoints(pending, tx)
            switch outcome {
            case .done:
                publish(tx)
                return
            case .failed(let index):
                pending.remove(at: index)
                retries += 1
            case .fallBack:
                optimistic = false
            case .unavailable(let error):
                disconnect()
                // The connection was found dead before anything of the batch was sent
                // (a server restarted since the last batch): connect once more at once.
                if !reconnected, error == PGWriterLoop.deadBeforeBegin, let fresh = reconnectNow() {
                    tx = fresh
                    reconnected = true
                    continue
                }
                for job in pending where job.awaitsOutcome { job.fail(error) }
                return
            }
        }
    }

    /// The jobs without a lock order as they came, then those with one by their keys
    /// (`WriteJob.lockOrder`; ties as they came). Another transaction (a concurrent
    /// writer, another edge) taking two of the same rows takes them in the same order.
    static func inLockOrder(_ batch: [WriteJob]) -> [WriteJob] {
        guard batch.contains(where: { $0.lockOrder != nil }) else { return batch }
        let keyed = batch.enumerated().filter { $0.element.lockOrder != nil }
            .sorted { a, b in
                let (x, y) = (a.element.lockOrder!, b.element.lockOrder!)
                return x != y ? x.utf8.lexicographicallyPrecedes(y.utf8) : a.offset < b.offset
            }
            .map(\.element)
        return batch.filter { $0.lockOrder == nil } + keyed
    }

    /// BEGIN failed on a dead connection: nothing of the batch reached the server, so it
    /// can be run again on a new connection.
    static let deadBeforeBegin = StoreError.unavailable("the PostgreSQL connection was lost before the batch")

    /// One connection attempt now, whatever the backoff says.
    private func reconnectNow() -> PGTransaction? {
        nextAttempt = 0
        return usableTransaction()
    }

    private enum Outcome {
        /// Committed, or failed as a whole (every job has its result).
        case done
        /// The job at this index threw; the transaction was rolled back.
        case failed(Int)
        /// A failure not pinned on one job: run again with savepoints.
        case fallBack
        /// The server went away: nothing of the batch is known to be committed.
        case unavailable(StoreError)
    }

    private func runOptimistic(_ jobs: [WriteJob], _ tx: PGTransaction) -> Outcome {
        tx.deferInserts = true
        if let failure = statement("BEGIN") {
            if case .unavailable = failure { return .unavailable(PGWriterLoop.deadBeforeBegin) }
            return abandon(jobs, failure)
        }
        for (index, job) in jobs.enumerated() {
            if !job.run(tx) {
                if case .unavailable = job.failure { return .unavailable(job.failure!) }
                rollback(tx)
                return .failed(index)
            }
        }
        do throws(StoreError) {
            try tx.flushPending()
            try recordOwnVersions(tx)
        } catch {
            rollback(tx)
            if case .unavailable = error { return .unavailable(error) }
            return .fallBack
        }
        if let failure = statement("COMMIT") {
            if case .unavailable = failure { return .unavailable(failure) }
            writer.failedCommits.add(1, ordering: .relaxed)
            rollback(tx)
            return .fallBack
        }
        return .done
    }

    /// One savepoint per job and no deferral: a job's failing statement fails only it.
    private func runWithSavepoints(_ jobs: [WriteJob], _ tx: PGTransaction) -> Outcome {
        tx.deferInserts = false
        if let failure = statement("BEGIN") { return abandon(jobs, failure) }
        for job in jobs {
            if let failure = statement("SAVEPOINT job") { return abandon(jobs, failure) }
            let counts = tx.counts
            if job.run(tx) {
                if let failure = statement("RELEASE SAVEPOINT job") {
                    job.fail(failure)
                    if case .unavailable = failure { return .unavailable(failure) }
                }
                continue
            }
            if case .unavailable = job.failure { return .unavailable(job.failure!) }
            // Its click counts go with its savepoint.
            tx.counts = counts
            if let failure = statement("ROLLBACK TO SAVEPOINT job") { return abandon(jobs, failure) }
        }
        do throws(StoreError) {
            try tx.flushPending()
            try recordOwnVersions(tx)
        } catch {
            return abandon(jobs, error)
        }
        if let failure = statement("COMMIT") {
            writer.failedCommits.add(1, ordering: .relaxed)
            return abandon(jobs, failure)
        }
        return .done
    }

    /// The transaction failed as a whole: every job that had not failed fails with `error`.
    private func abandon(_ jobs: [WriteJob], _ error: StoreError) -> Outcome {
        if case .unavailable = error { return .unavailable(error) }
        _ = statement("ROLLBACK")
        transaction?.discardPending()
        for job in jobs where job.awaitsOutcome { job.fail(error) }
        return .done
    }

    private func rollback(_ tx: PGTransaction) {
        _ = statement("ROLLBACK")
        tx.discardPending()
    }

    /// Runs a control statement; its error, or nil.
    private func statement(_ sql: String) -> StoreError? {
        guard let db else { return .unavailable("connection lost") }
        do throws(StoreError) {
            try db.execute(sql)
            return nil
        } catch {
            return error
        }
    }

    /// Inside a transaction that changed the catalog or keys: the counters its triggers
    /// set (the row stays locked until the commit, so no one else moved them).
    private func recordOwnVersions(_ tx: PGTransaction) throws(StoreError) {
        guard tx.catalogChanged || tx.keysChanged, let db else { return }
        let row = try db.run("writer_versions", "SELECT catalog_version, keys_version FROM store_state")
        guard row.rowCount == 1 else { return }
        let versions = (row.int(0, 0), row.int(0, 1))
        writer.ownVersions.withLock { $0 = versions }
    }

    // MARK: cache publication

    private func publish(_ tx: PGTransaction) {
        if tx.keysChanged { log.keysVersion.add(1, ordering: .releasing) }
        var entries = tx.invalidations
        var catalog: CatalogSnapshot?
        if tx.catalogChanged {
            catalog = try? tx.loadCatalog()
            if catalog == nil { entries.append(.all) }
        }
        log.publish(entries, catalog: catalog)
    }
}
