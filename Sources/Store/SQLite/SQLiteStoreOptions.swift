import Core
import Model

extension SQLiteStore {
    /// Tuning of the SQLite store. The defaults suit the edge on a small machine.
    public struct Options: Sendable {
        /// Set mode 0600 on database files found readable by group or others (they hold
        /// the receipt-signing keys); `check` turns it off to report them unchanged. A
        /// new database file is created 0600 either way.
        public var makeFilesPrivate = true
        /// How long a connection waits for another process's lock (the CLI
        /// writing to the same file) before failing with SQLITE_BUSY. Default 5 s.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// How long the writer waits for another process's lock once a batch has waited
        /// `busyTimeoutMilliseconds` in vain, until a batch commits again: a lock held
        /// that long is no moment's contention, and every batch behind it (visitors
        /// waiting for a durable write among them) would otherwise wait the full time.
        /// Default 100 ms (never more than `busyTimeoutMilliseconds`).
        public var stalledBusyTimeoutMilliseconds: Int32 = 100
        /// Most jobs in one group-commit transaction. Default 512.
        public var maxBatchCount: Int = 512
        /// How long the writer may wait for more jobs after the first one of a
        /// batch, when fewer than `maxBatchCount` are queued. Default 0: under
        /// load, batches fill by themselves while the previous one runs, and
        /// with `synchronous=NORMAL` a commit is a `write()` rather than an
        /// `fsync`, so waiting on purpose only adds latency (see bench/store).
        /// Raise it (e.g. 1000 µs) where commits are expensive.
        public var maxBatchWaitMicroseconds: Int = 0
        /// Run a batch's bodies without a savepoint each; when one throws, roll the
        /// batch back and run it again without that body (so the bodies before it
        /// run twice). Default true: savepoints copy every page a body touches and
        /// cost about a third of the writer's time. False: one SAVEPOINT per body,
        /// every body runs exactly once.
        public var optimisticBatches: Bool = true
        /// SQLite page cache of the writer connection, KiB. Default 16 MiB: the
        /// kernel's page cache holds the rest, and SQLite walks its own cache's
        /// hash table at the end of every transaction, so a much larger cache
        /// makes every commit slower (measured with bench/store).
        public var writerCacheKiB: Int = 16_384
        /// The writer writes each commit's WAL frames with a few large writes
        /// (`CoalescingVFS`) instead of two small ones per page. Default true.
        public var coalesceWALWrites: Bool = true
        /// Page size (bytes, a power of two from 512 to 65,536) of a database file
        /// this store creates; an existing file keeps its own. Default 4,096.
        public var pageSize: Int = 4_096
        /// SQLite page cache of each reader connection, KiB. Default 8 MiB (links
        /// are served from the reader's link cache first).
        public var readerCacheKiB: Int = 8_192
        /// iOS clicks the writer keeps in memory as probabilistic candidates
        /// (`CandidateIndex`, decision 0009): those of the last hour, at most this
        /// many (about 200 bytes each); past it the oldest can no longer match.
        /// Default 250,000 (70 iOS clicks per second of apps with probabilistic
        /// matching on, for a whole hour). 0: no probabilistic match ever.
        public var probabilisticCandidateCapacity: Int = 250_000
        /// Links each reader keeps per cache generation (two generations). Default 20,000.
        public var linkCacheCapacity: Int = 20_000
        /// Invalidation entries kept for readers that have not caught up. Default 65,536.
        public var invalidationLogCapacity: Int = 65_536
        /// Rows deleted per retention transaction. Default 1,000.
        public var pruneBatchSize: Int = 1_000
        /// How often the writer looks for commits by other processes (and then
        /// drops every cached link, domain and app). Default 1 s.
        public var externalChangePollMilliseconds: Int = 1_000
        /// WAL size (pages) above which the WAL is checkpointed into the database
        /// file. Default 4,000 pages (16 MiB).
        public var walCheckpointPages: Int = 4_000
        /// Checkpoint on a separate thread and connection (default) rather than
        /// inside the writer's commits, which would then stall for the copy and
        /// its `fsync`s.
        public var backgroundCheckpoint: Bool = true
        /// Under continuous writes, WAL size (pages) at which the writer itself
        /// completes a checkpoint between two batches so that the WAL starts over
        /// (costs that batch two `fsync`s). Default 16,384 pages (64 MiB).
        public var walResetPages: Int = 16_384
        /// The WAL file is truncated back to this size when it is reset. Default 64 MiB.
        public var walSizeLimitBytes: Int = 64 << 20
        /// Milliseconds since the epoch; `StoreTransaction.now`. Injectable for tests.
        public var clock: @Sendable () -> Int64 = { Int64(Clock.nowMilliseconds()) }

        public init() {}
    }

    /// Counters of the writer since it started.
    public struct Statistics: Sendable, Equatable {
        public var batches: Int
        public var jobs: Int
        public var failedJobs: Int
        public var failedCommits: Int
        public var largestBatch: Int
        /// Background checkpoints run.
        public var checkpoints: Int
        /// Checkpoints the writer completed itself so that the WAL starts over.
        public var walResets: Int
        /// CPU time the writer thread has used, nanoseconds.
        public var writerCPUNanoseconds: Int
        /// Entries in the writer's probabilistic candidate index (decision 0009).
        public var probabilisticCandidates: Int = 0
        /// Candidates forgotten before their hour was over because the index was full:
        /// when this grows, raise `probabilisticCandidateCapacity`.
        public var candidatesDroppedAtCapacity: Int = 0
    }
}
