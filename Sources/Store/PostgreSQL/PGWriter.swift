import Core
import Model
import Synchronization

/// The PostgreSQL store's writer: one connection, one thread, group commit.
///
/// Each batch is one transaction. First an optimistic pass: no savepoints, and the
/// visit path's rows held and written in bulk at the end (`PGTransaction`'s deferred
/// inserts), so a batch of visits costs a handful of statements and one commit. A job
/// whose body throws rolls the pass back and is left out of the next pass with its
/// error (twice at most); a failure the pass cannot pin on one job (the bulk insert,
/// the commit) sends the batch to a pass with one savepoint per job and no deferral,
/// where each job's statements fail only that job.
///
/// When the server cannot be reached (refused, restarting, the connection lost), every
/// job of the batch fails at once with `.unavailable` (durable visits then answer
/// without a token, clicks written after their answer are retried: decision 0011),
/// and the writer reconnects in the background of its own thread with growing waits
/// (100 ms to 5 s), never blocking a batch on a connection attempt.
///
/// This is what other threads hold: the thread, its counters and what the listener reads.
/// The connection, the transaction and the batches are `PGWriterLoop`'s, which `start`
/// hands to the new thread and no one else can reach.
final class PGWriter: Sendable {
    private let thread = AtomicLazyReference<OSThread>()
    static let minimumBackoff: UInt64 = 100_000_000
    static let maximumBackoff: UInt64 = 5_000_000_000
    /// How long a batch waits before it fails while the server is away.
    static let disconnectedPauseMicroseconds: UInt32 = 50_000

    let batches = Atomic<Int>(0)
    let jobs = Atomic<Int>(0)
    let failedJobs = Atomic<Int>(0)
    let failedCommits = Atomic<Int>(0)
    let largestBatch = Atomic<Int>(0)
    let reconnects = Atomic<Int>(0)
    let cpuNanoseconds = Atomic<Int>(0)
    /// The writer's connection is up.
    let connected = Atomic<Bool>(false)
    /// The server process of the writer's connection: notifications it sent are its own.
    let backendPID = Atomic<Int32>(0)
    /// `store_state`'s counters as the writer's last catalog or key change left them
    /// (read inside that transaction): a change beyond them is another process's.
    let ownVersions = Mutex<(catalog: Int64, keys: Int64)>((0, 0))

    /// The store's webhook wake-up, raised by its transactions.
    let webhookSignal: WebhookSignal

    init(webhookSignal: WebhookSignal) { self.webhookSignal = webhookSignal }

    /// Starts the writer thread on `connection`, which from now on it alone uses. Once.
    func start(
        connection: sending PGConnection, settings: PGConnectionSettings, queue: WriteQueue, log: InvalidationLog,
        clock: @escaping @Sendable () -> Int64, name: String = "store-writer"
    ) {
        let loop = PGWriterLoop(
            connection: connection, writer: self, settings: settings, queue: queue, log: log, clock: clock)
        let started = OSThread.start(name: name, taking: { loop.run() })
        precondition(thread.storeIfNil(started) === started, "the store's writer started twice")
    }

    func join() { thread.load()?.join() }
    func detach() { thread.load()?.detach() }
    var isWriterThread: Bool { thread.load()?.isCurrent ?? false }
}
