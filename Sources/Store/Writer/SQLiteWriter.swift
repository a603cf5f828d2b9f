import CSQLite
import Core
import Model
import Synchronization

/// The single writer: one connection, one thread, group commit.
///
/// Each batch is one `BEGIN IMMEDIATE ... COMMIT`; each job runs inside its own
/// `SAVEPOINT`, so a job that throws rolls back only its own changes. After the
/// commit the writer publishes cache invalidations, then calls every job's
/// completion (on this thread). If SQLite itself rolls the whole transaction
/// back mid-batch (I/O error, disk full), or COMMIT fails, every job whose
/// changes were in it fails with `.backend`, and nothing of it remains.
///
/// This is what other threads hold: the thread, its counters. The connection, the
/// transaction and what the writer knows of the file are `SQLiteWriterLoop`'s, which
/// `start` hands to the new thread and no one else can reach.
final class SQLiteWriter: Sendable {
    private let thread = AtomicLazyReference<OSThread>()

    let batches = Atomic<Int>(0)
    let jobs = Atomic<Int>(0)
    let failedJobs = Atomic<Int>(0)
    let failedCommits = Atomic<Int>(0)
    let largestBatch = Atomic<Int>(0)
    /// CPU time of the writer thread (nanoseconds), updated after each batch.
    let cpuNanoseconds = Atomic<Int>(0)
    /// The candidate index's size and its drops at capacity, updated after each batch.
    let candidateCount = Atomic<Int>(0)
    let candidatesDropped = Atomic<Int>(0)

    /// The store's webhook wake-up, raised by its transactions.
    let webhookSignal: WebhookSignal

    init(webhookSignal: WebhookSignal) { self.webhookSignal = webhookSignal }

    /// Loads the writer's in-memory state from `db`, then starts the writer thread, which
    /// from now on is the only user of `db`. Once.
    func start(
        db: sending SQLiteConnection, queue: WriteQueue, log: InvalidationLog, checkpointer: Checkpointer?,
        options: SQLiteStore.Options
    ) throws(StoreError) {
        let loop = try SQLiteWriterLoop(
            db: db, writer: self, queue: queue, log: log, checkpointer: checkpointer, options: options)
        let started = OSThread.start(name: "store-writer", taking: { loop.run() })
        precondition(thread.storeIfNil(started) === started, "the store's writer started twice")
    }

    /// Waits for the thread to drain and stop (the queue must be closed first).
    func join() { thread.load()?.join() }

    /// For a close from the writer thread itself, which cannot wait for itself.
    func detach() { thread.load()?.detach() }

    var isWriterThread: Bool { thread.load()?.isCurrent ?? false }
}
