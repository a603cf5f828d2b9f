/// Where the edges on one database share what their resolvers admitted, so that the
/// rate limits hold for the fleet rather than per node (decision 0016).
///
/// The resolver never waits for it on a request: its sync thread calls `exchange` a
/// few times a second with the keys its loops touched, and folds the answer into its
/// in-memory buckets. PostgreSQL shares the counts (`PGFleetCounters`); a SQLite edge is
/// alone (`SoloCounters`) and keeps its buckets to itself.
public protocol FleetCounters: Sendable {
    /// Whether other nodes may share the counts (false: nothing to exchange, the
    /// resolver starts no sync thread).
    var isShared: Bool { get }

    /// 16 bytes every node of the fleet holds alike: the key of the bucket keys' hash,
    /// so that one text is one bucket on every node. Secret, like the hash of addresses.
    var keySeed: [UInt8] { get }

    /// Publishes this node's admissions since the last exchange and reads what the
    /// other live nodes published for the same keys. One round trip; blocking; called
    /// from one thread at a time. `nowMicros` is the node's clock, against which the
    /// others' backlogs are measured.
    func exchange(_ counts: [FleetCount], nowMicros: Int64) throws(StoreError) -> FleetExchange

    /// Says that this node stops (its share of every bucket goes back to the others at
    /// once instead of when its heartbeat expires). Best effort.
    func leave()
}

/// One key's admissions on this node.
public struct FleetCount: Sendable, Equatable {
    /// Which bucket (the resolver's numbering: app, address, instance, token, failures).
    public var bucket: Int
    /// The key in that bucket (a keyed hash, never the text).
    public var key: UInt64
    /// Admissions since the last exchange that published this key (0 is allowed: the
    /// key is then only asked about).
    public var added: Int64
    /// When this node's own bucket for the key is empty again (microseconds, the GCRA
    /// time of its admissions alone): how full this node left it.
    public var ownTAT: Int64

    public init(bucket: Int, key: UInt64, added: Int64, ownTAT: Int64) {
        self.bucket = bucket
        self.key = key
        self.added = added
        self.ownTAT = ownTAT
    }
}

/// What the other nodes published, in the order of the counts given.
public struct FleetExchange: Sendable, Equatable {
    /// Live nodes, this one included (at least 1).
    public var nodes: Int
    public var others: [FleetOthers]

    public init(nodes: Int, others: [FleetOthers]) {
        self.nodes = nodes
        self.others = others
    }
}

/// The other nodes' admissions of one key.
public struct FleetOthers: Sendable, Equatable {
    /// Everything they published for the key (grows; the difference between two
    /// exchanges is what they admitted in between).
    public var count: Int64
    /// The sum of their own buckets' backlogs at `nowMicros` (how full they left the
    /// key), for a node that meets the key for the first time.
    public var backlogMicros: Int64

    public init(count: Int64, backlogMicros: Int64) {
        self.count = count
        self.backlogMicros = backlogMicros
    }
}

/// A node without a fleet (SQLite): nothing is shared, the key seed is this process's own.
public struct SoloCounters: FleetCounters {
    public let keySeed: [UInt8]

    public init() {
        var seed: [UInt8] = []
        var random = SystemRandomNumberGenerator()
        for _ in 0..<16 { seed.append(UInt8.random(in: 0...255, using: &random)) }
        keySeed = seed
    }

    public var isShared: Bool { false }

    public func exchange(_ counts: [FleetCount], nowMicros: Int64) throws(StoreError) -> FleetExchange {
        FleetExchange(nodes: 1, others: counts.map { _ in FleetOthers(count: 0, backlogMicros: 0) })
    }

    public func leave() {}
}
