import CSQLite
import Core
import Model
import Synchronization

/// Moves committed pages from the WAL into the database file on its own thread
/// and connection, so that the writer never pays for a checkpoint (nor for the
/// `fsync` of WAL and database that comes with one under `synchronous=NORMAL`).
///
/// The writer's connection has SQLite's auto-checkpoint switched off and a WAL
/// hook instead: after each commit the hook compares the WAL size with the
/// threshold and, when above, wakes this thread (one atomic store; a signal only
/// if the thread sleeps). Passive checkpoints never block the writer or readers.
/// An idle timer checkpoints what is left, so the WAL does not keep old pages
/// for long after a burst.
///
/// Under continuous writes a passive checkpoint never quite catches up (new
/// frames arrive while it copies), so SQLite never starts the WAL over and the
/// file keeps growing, every new page costing the kernel an allocation. So when
/// the WAL passes `resetPages`, the writer itself runs a passive checkpoint
/// between two batches (`finishResetIfNeeded`): this thread has already copied
/// nearly everything, the writer copies the last few frames, and the next
/// transaction starts the WAL from its beginning again. That checkpoint
/// includes two `fsync`s, which the batches queued meanwhile wait for: rare
/// (once per `resetPages` of WAL), but visible in the highest percentiles.
final class Checkpointer: @unchecked Sendable {
    private let db: SQLiteConnection
    private let thresholdPages: Int32
    private let resetPages: Int
    private let monitor = Monitor()
    private let requested = Atomic<Bool>(false)
    private var sleeping = false
    private var stopping = false
    private var thread: OSThread?
    let checkpoints = Atomic<Int>(0)
    /// Pause after each pass, nanoseconds.
    static let minimumInterval: UInt64 = 50_000_000
    /// WAL size in pages after the writer's last commit (set by the hook, on the writer thread).
    let walPages = Atomic<Int>(0)

    init(path: String, thresholdPages: Int, resetPages: Int, options: SQLiteStore.Options) throws(StoreError) {
        db = try SQLiteConnection.open(
            path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, cacheKiB: 1_024,
            queryOnly: false)
        self.thresholdPages = Int32(max(thresholdPages, 1))
        self.resetPages = max(resetPages, thresholdPages, 1)
    }

    /// Replaces the writer connection's auto-checkpoint with a request to this thread.
    func attach(to writer: SQLiteConnection) {
        sqlite3_wal_autocheckpoint(writer.handle, 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            writer.handle,
            { context, _, _, pages in
                let checkpointer = Unmanaged<Checkpointer>.fromOpaque(context!).takeUnretainedValue()
                checkpointer.walPages.store(Int(pages), ordering: .relaxed)
                if pages >= checkpointer.thresholdPages { checkpointer.request() }
                return SQLITE_OK
            }, context)
    }

    func start() {
        thread = OSThread(name: "store-ckpt") { [self] in run() }
    }

    /// Stops the thread after a last checkpoint. The writer must be stopped first.
    func stop() {
        monitor.withLock {
            stopping = true
            monitor.signal()
        }
        thread?.join()
    }

    /// Writer thread, between batches: completes a checkpoint so the next
    /// transaction can reset the WAL. No-op below `2 * threshold` pages.
    func finishResetIfNeeded(writer: SQLiteConnection) {
        guard writerTurn.load(ordering: .acquiring) else { return }
        var logPages: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(writer.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &copied)
        if rc == SQLITE_OK && logPages == copied { resets.add(1, ordering: .relaxed) }
        writerTurn.store(false, ordering: .releasing)
    }

    /// The background pass left a large WAL: the writer finishes between batches
    /// while this thread waits (two checkpointers would only get SQLITE_BUSY).
    private let writerTurn = Atomic<Bool>(false)

    let resets = Atomic<Int>(0)

    private func request() {
        if requested.exchange(true, ordering: .acquiringAndReleasing) { return }
        monitor.withLock {
            if sleeping { monitor.signal() }
        }
    }

    private func run() {
        while true {
            let stop: Bool = monitor.withLock {
                if !stopping && !requested.load(ordering: .acquiring) {
                    sleeping = true
                    monitor.wait(untilMonotonic: Clock.monotonicNanoseconds() &+ 1_000_000_000)
                    sleeping = false
                }
                return stopping
            }
            requested.store(false, ordering: .releasing)
            checkpoint()
            if stop { break }
            // Each pass costs two fsyncs: under a steady stream of commits, pace
            // the passes rather than chase every commit.
            monitor.withLock {
                if !stopping { monitor.wait(untilMonotonic: Clock.monotonicNanoseconds() &+ Self.minimumInterval) }
            }
        }
        db.close()
    }

    private func checkpoint() {
        if writerTurn.load(ordering: .acquiring) { return }
        var logPages: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(db.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &copied)
        guard rc == SQLITE_OK else { return }
        checkpoints.add(1, ordering: .relaxed)
        if walPages.load(ordering: .relaxed) >= resetPages {
            writerTurn.store(true, ordering: .releasing)
        }
    }
}
