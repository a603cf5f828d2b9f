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
final class Checkpointer: Sendable {
    private let thresholdPages: Int32
    private let resetPages: Int
    private struct State {
        var sleeping = false
        var stopping = false
        var thread: OSThread?
    }
    private let monitor = Monitor(State())
    private let requested = Atomic<Bool>(false)
    let checkpoints = Atomic<Int>(0)
    /// Pause after each pass, nanoseconds.
    static let minimumInterval: UInt64 = 50_000_000
    /// WAL size in pages after the writer's last commit (set by the hook, on the writer thread).
    let walPages = Atomic<Int>(0)

    init(thresholdPages: Int, resetPages: Int) {
        self.thresholdPages = Int32(max(thresholdPages, 1))
        self.resetPages = max(resetPages, thresholdPages, 1)
    }

    /// The checkpointer's own connection to the file at `path`, for `start`.
    static func connect(path: String, options: SQLiteStore.Options) throws(StoreError) -> SQLiteConnection {
        try SQLiteConnection.open(
            path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, cacheKiB: 1_024,
            queryOnly: false)
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

    /// Starts the thread on `connection` (from `connect`), which it alone uses from now on.
    func start(on connection: sending SQLiteConnection) {
        let thread = OSThread.start(name: "store-ckpt", taking: { [self] in run(connection) })
        monitor.withLock { $0.thread = thread }
    }

    /// Stops the thread after a last checkpoint. The writer must be stopped first.
    func stop() {
        let thread = monitor.withLock { s in
            s.stopping = true
            monitor.signal()
            return s.thread
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
        monitor.withLock { s in
            if s.sleeping { monitor.signal() }
        }
    }

    private func run(_ db: SQLiteConnection) {
        while true {
            let stop: Bool = monitor.withCondition { held in
                if !held.state.stopping && !requested.load(ordering: .acquiring) {
                    held.state.sleeping = true
                    held.wait(untilMonotonic: Clock.monotonicNanoseconds() &+ 1_000_000_000)
                    held.state.sleeping = false
                }
                return held.state.stopping
            }
            requested.store(false, ordering: .releasing)
            checkpoint(db)
            if stop { break }
            // Each pass costs two fsyncs: under a steady stream of commits, pace
            // the passes rather than chase every commit.
            monitor.withCondition { held in
                if !held.state.stopping {
                    held.wait(untilMonotonic: Clock.monotonicNanoseconds() &+ Self.minimumInterval)
                }
            }
        }
        db.close()
    }

    private func checkpoint(_ db: SQLiteConnection) {
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
