import CSQLite
import Core
import Model
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The writer thread's own state and work (`SQLiteWriter`): its connection and
/// transaction, what it knows of the file, the batches. Made by `SQLiteWriter.start`
/// and handed whole to the new thread: not `Sendable`, so nothing else can hold it.
final class SQLiteWriterLoop {
    private let db: SQLiteConnection
    private let transaction: SQLiteTransaction
    private let writer: SQLiteWriter
    private let queue: WriteQueue
    private let log: InvalidationLog
    private let checkpointer: Checkpointer?
    private let clock: @Sendable () -> Int64
    private let pollInterval: UInt64
    private var dataVersion: Int64 = 0
    private var lastPoll: UInt64 = 0
    private var catalogStale = false
    private let optimistic: Bool
    private let busyTimeout: Int32
    private let stalledBusyTimeout: Int32
    /// The last batch found the database locked by another process for the whole lock
    /// wait (and nothing of it committed): the writer waits `stalledBusyTimeout` now.
    private var lockStalled = false

    init(
        db: SQLiteConnection, writer: SQLiteWriter, queue: WriteQueue, log: InvalidationLog,
        checkpointer: Checkpointer?, options: SQLiteStore.Options
    ) throws(StoreError) {
        self.db = db
        self.transaction = SQLiteTransaction(
            db: db, candidateCapacity: options.probabilisticCandidateCapacity, webhookSignal: writer.webhookSignal)
        self.writer = writer
        self.queue = queue
        self.log = log
        self.checkpointer = checkpointer
        self.clock = options.clock
        self.optimistic = options.optimisticBatches && getenv("STORE_SAVEPOINTS") == nil
        self.pollInterval = UInt64(max(options.externalChangePollMilliseconds, 1)) * 1_000_000
        self.busyTimeout = options.busyTimeoutMilliseconds
        self.stalledBusyTimeout = min(options.stalledBusyTimeoutMilliseconds, options.busyTimeoutMilliseconds)
        try transaction.loadCandidates(now: clock())
        dataVersion = try db.integer("PRAGMA data_version")
        lastPoll = Clock.monotonicNanoseconds()
    }

    func run() {
        var batch: [WriteJob] = []
        batch.reserveCapacity(queue.maxCount)
        loop: while true {
            switch queue.next(into: &batch, idleTimeout: pollInterval) {
            case .closed: break loop
            case .idle: pollExternalChanges(force: true)
            case .jobs:
                pollExternalChanges(force: false)
                execute(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        checkpointer?.stop()
        db.close()
    }

    // MARK: a batch

    private func execute(_ batch: [WriteJob]) {
        writer.batches.add(1, ordering: .relaxed)
        writer.jobs.add(batch.count, ordering: .relaxed)
        if batch.count > writer.largestBatch.load(ordering: .relaxed) {
            writer.largestBatch.store(batch.count, ordering: .relaxed)
        }
        let now = clock()

        // Optimistic passes first: no savepoints, so a job costs only its own
        // statements. A job that throws rolls the pass back and is left out of
        // the next pass with its error; the jobs before it run again. After two
        // such failures, the rest of the batch runs with one savepoint per job.
        var pending = batch
        var retries = 0
        while true {
            transaction.beginBatch(now: now)
            if optimistic && retries < 2 {
                switch runOptimistic(pending) {
                case .done:
                    break
                case .failed(let index):
                    pending.remove(at: index)
                    retries += 1
                    if !pending.isEmpty { continue }
                case .fallBack:
                    retries = .max
                    continue
                }
            } else {
                runWithSavepoints(pending)
            }
            break
        }

        publish()
        // Before the completions: an answer that waited for this batch sees its counts.
        writer.candidateCount.store(transaction.candidates.count, ordering: .relaxed)
        writer.candidatesDropped.store(transaction.candidates.droppedAtCapacity, ordering: .relaxed)
        var failed = 0
        var lockTimeouts = 0
        for job in batch where !job.succeeded {
            failed += 1
            if job.failure?.isLockTimeout == true { lockTimeouts += 1 }
        }
        // Before the completions: a write they submit again meets the new wait.
        updateLockWait(stalled: lockTimeouts > 0 && failed == batch.count)
        for job in batch { job.complete() }
        if failed > 0 { writer.failedJobs.add(failed, ordering: .relaxed) }
        checkpointer?.finishResetIfNeeded(writer: db)
        var cpu = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
        writer.cpuNanoseconds.store(cpu.tv_sec * 1_000_000_000 + cpu.tv_nsec, ordering: .relaxed)
    }

    /// Short lock waits while another process holds the lock (see `lockStalled`); the
    /// configured wait again once a batch got through.
    private func updateLockWait(stalled: Bool) {
        guard stalled != lockStalled else { return }
        lockStalled = stalled
        sqlite3_busy_timeout(db.handle, stalled ? stalledBusyTimeout : busyTimeout)
    }

    private enum OptimisticOutcome {
        /// Committed, or failed as a whole (BEGIN or COMMIT failed): every job has its result.
        case done
        /// The job at this index threw; the transaction was rolled back.
        case failed(Int)
        /// SQLite rolled the transaction back by itself: retry job by job.
        case fallBack
    }

    private func runOptimistic(_ jobs: [WriteJob]) -> OptimisticOutcome {
        guard begin(jobs, from: 0) else { return .done }
        for (index, job) in jobs.enumerated() {
            let ok = job.run(transaction)
            if db.isAutocommit { return .fallBack }
            if !ok {
                _ = try? db.execute("ROLLBACK")
                return .failed(index)
            }
        }
        commit(jobs, from: 0)
        return .done
    }

    /// One SAVEPOINT per job: a job that throws rolls back only its own changes.
    private func runWithSavepoints(_ batch: [WriteJob]) {
        var open = begin(batch, from: 0)
        var first = 0  // first job of the current SQLite transaction
        for index in batch.indices where open {
            runInSavepoint(batch[index])
            if db.isAutocommit {
                // SQLite rolled back the whole transaction: the earlier jobs' work is gone too.
                transaction.counts.removeAll()
                let error = StoreError.backend(
                    code: sqlite3_extended_errcode(db.handle), message: "transaction rolled back by SQLite")
                for j in first...index where batch[j].succeeded { batch[j].fail(error) }
                first = index + 1
                if first < batch.count { open = begin(batch, from: first) }
            }
        }
        if open && first < batch.count { commit(batch, from: first) }
    }

    /// BEGIN IMMEDIATE; on failure every job from `from` fails. True when open.
    private func begin(_ batch: [WriteJob], from: Int) -> Bool {
        do throws(StoreError) {
            try db.execute("BEGIN IMMEDIATE")
            return true
        } catch {
            for job in batch[from...] { job.fail(error) }
            return false
        }
    }

    private func runInSavepoint(_ job: WriteJob) {
        do throws(StoreError) {
            try db.execute("SAVEPOINT job")
        } catch {
            job.fail(error)
            return
        }
        // The job's click counts are pending in memory: they go with its savepoint.
        let counts = transaction.counts
        if job.run(transaction) {
            do {
                try db.execute("RELEASE job")
                return
            } catch {
                job.fail(error)
            }
        }
        transaction.counts = counts
        if !db.isAutocommit {
            _ = try? db.execute("ROLLBACK TO job")
            _ = try? db.execute("RELEASE job")
        }
    }

    /// Writes the batch's click counts, then COMMIT; on failure every job from `from` fails.
    private func commit(_ batch: [WriteJob], from: Int) {
        do throws(StoreError) {
            try transaction.flushCounts()
            try db.execute("COMMIT")
        } catch {
            writer.failedCommits.add(1, ordering: .relaxed)
            if !db.isAutocommit { _ = try? db.execute("ROLLBACK") }
            let failure: StoreError
            if case .backend = error {
                failure = error
            } else {
                // e.g. a deferred foreign key: still a backend failure for every job of the batch.
                failure = .backend(code: sqlite3_extended_errcode(db.handle), message: "commit failed: \(error)")
            }
            for job in batch[from...] where job.succeeded { job.fail(failure) }
        }
    }

    // MARK: cache publication

    private func publish() {
        if transaction.keysChanged { log.keysVersion.add(1, ordering: .releasing) }
        var entries = transaction.invalidations
        var catalog: CatalogSnapshot?
        if transaction.catalogChanged || catalogStale {
            catalog = reloadCatalog()
            if catalog == nil { entries.append(.all) }
        }
        log.publish(entries, catalog: catalog)
    }

    private func reloadCatalog() -> CatalogSnapshot? {
        do throws(StoreError) {
            let catalog = try transaction.loadCatalog()
            catalogStale = false
            return catalog
        } catch {
            catalogStale = true
            return nil
        }
    }

    /// Another process (the CLI's `apply`, `keys`) committed to the file: forget every cached answer.
    private func pollExternalChanges(force: Bool) {
        let now = Clock.monotonicNanoseconds()
        if !force && now &- lastPoll < pollInterval { return }
        lastPoll = now
        guard let version = try? db.integer("PRAGMA data_version") else { return }
        if version != dataVersion {
            dataVersion = version
            log.keysVersion.add(1, ordering: .releasing)
            log.publish([.all], catalog: reloadCatalog())
        } else if catalogStale, let catalog = reloadCatalog() {
            log.publish([], catalog: catalog)
        }
    }
}
