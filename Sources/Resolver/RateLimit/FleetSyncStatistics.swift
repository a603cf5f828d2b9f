/// What the resolver's fleet rate-limit sync (`FleetSync`, decision 0016) did since the
/// edge started, for `/metrics` (PostgreSQL only: alone, nothing syncs).
public struct FleetSyncStatistics: Sendable, Equatable {
    /// Exchanges with the other nodes that succeeded (one every 100 ms).
    public var syncs: Int
    /// Exchanges that failed (the database away, a statement refused); the admissions
    /// they carried are published by the next one that succeeds.
    public var failures: Int
    /// Since the last exchange that succeeded (since the sync started, before the first):
    /// how old what this node knows of the others is.
    public var millisecondsSinceSync: Int64
    /// Live nodes as the last exchange counted them, this one included: what the buckets
    /// are divided by (1 alone, and while the node decides alone).
    public var nodes: Int
    /// Per enabled bucket, the requests it admitted while this node decided alone because
    /// its exchanges had failed for longer than a second (`FleetSync.failOpenAfter`): what
    /// the fleet's limit did not hold. Admissions on shares that are merely old (syncs
    /// failing for less than that) are not counted: the shares still bound them.
    public var unsyncedAdmissions: [Bucket]

    public struct Bucket: Sendable, Equatable {
        /// `app`, `address`, `instance`, `token` or `failures`.
        public var bucket: String
        public var count: Int64

        public init(bucket: String, count: Int64) {
            self.bucket = bucket
            self.count = count
        }
    }

    public init(syncs: Int, failures: Int, millisecondsSinceSync: Int64, nodes: Int, unsyncedAdmissions: [Bucket]) {
        self.syncs = syncs
        self.failures = failures
        self.millisecondsSinceSync = millisecondsSinceSync
        self.nodes = nodes
        self.unsyncedAdmissions = unsyncedAdmissions
    }
}
