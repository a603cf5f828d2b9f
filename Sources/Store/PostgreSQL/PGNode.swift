import Model

/// One row of `nodes` (schema 2): an edge process name, what it runs and when it was
/// last heard of. Times are the database server's clock, in milliseconds since the
/// epoch, so that nodes whose clocks disagree still compare.
public struct PGNode: Sendable, Equatable {
    public var name: String
    public var version: String
    /// The newest schema version the node's binary knows.
    public var schemaVersion: Int
    public var startedAt: Int64
    public var heartbeatAt: Int64
    /// Its listeners (`http=127.0.0.1:8080 https=...`), `starting` before it listens,
    /// empty once it stopped gracefully.
    public var listening: String

    public init(
        name: String, version: String, schemaVersion: Int, startedAt: Int64, heartbeatAt: Int64, listening: String
    ) {
        self.name = name
        self.version = version
        self.schemaVersion = schemaVersion
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.listening = listening
    }

    /// What the row says of the process at `now` (the server's clock).
    public enum State: String, Sendable {
        /// Heartbeats within `PGNodeHeartbeat.liveWithinMilliseconds`.
        case live
        /// It stopped gracefully (its last heartbeat said so).
        case stopped
        /// No heartbeat for longer: killed, crashed, or cut off from the database.
        case silent
    }

    public func state(now: Int64) -> State {
        if listening.isEmpty { return .stopped }
        return now - heartbeatAt <= PGNodeHeartbeat.liveWithinMilliseconds ? .live : .silent
    }
}

/// The nodes of a database, as `biqli-edge nodes` shows them.
public struct PGNodeListing: Sendable, Equatable {
    /// The server's clock when read.
    public var now: Int64
    /// The database's schema (nil before any edge made it).
    public var schema: Schema?
    public var nodes: [PGNode]

    /// The first schema whose binaries read `secret_keys.scopes` (`PGSchemaV9`): an older
    /// binary beside it reads a scoped key as one with every power.
    public static let keyScopesSchemaVersion = 9

    /// The live nodes whose binary knows only schemas before `schemaVersion`: they would
    /// misread what its step added.
    public func liveNodes(olderThan schemaVersion: Int) -> [PGNode] {
        nodes.filter { $0.state(now: now) == .live && $0.schemaVersion < schemaVersion }
    }

    public struct Schema: Sendable, Equatable {
        public var version: Int
        /// The oldest schema version whose binaries run on this one.
        public var compatibleFrom: Int
    }

    /// Reads the nodes with a heartbeat within `seenWithinMilliseconds` of the server's
    /// clock (all of them when nil), by name, on a connection of its own. Changes
    /// nothing: a database no edge has run on lists no node.
    public static func read(settings: PGConnectionSettings, seenWithinMilliseconds: Int64?) throws(StoreError)
        -> PGNodeListing
    {
        let db = try PGConnection.connect(settings)
        let clock = try db.run("nodes_now", "SELECT \(PGNodeHeartbeat.nowSQL)")
        var listing = PGNodeListing(now: clock.int(0, 0), schema: nil, nodes: [])
        let tables = try db.run(
            "nodes_tables",
            "SELECT to_regclass('biqli_schema') IS NOT NULL, to_regclass('nodes') IS NOT NULL")
        guard tables.bool(0, 0) else { return listing }
        let found = try db.run("nodes_schema_version", "SELECT version FROM biqli_schema")
        guard found.rowCount == 1 else { return listing }
        let version = Int(found.int(0, 0))
        let compatible = try PGMigrations.compatibleFrom(db)
        listing.schema = Schema(version: version, compatibleFrom: compatible == Int.max ? version : compatible)
        guard tables.bool(0, 1) else { return listing }
        var p = PGParams()
        p.int(seenWithinMilliseconds.map { listing.now - $0 } ?? Int64.min)
        let rows = try db.run(
            "nodes_list",
            "SELECT name, version, schema_version, started_at, heartbeat_at, listening FROM nodes "
                + "WHERE heartbeat_at >= $1 ORDER BY name COLLATE \"C\"", p)
        for i in 0..<rows.rowCount {
            listing.nodes.append(
                PGNode(
                    name: rows.text(i, 0), version: rows.text(i, 1), schemaVersion: Int(rows.int(i, 2)),
                    startedAt: rows.int(i, 3), heartbeatAt: rows.int(i, 4), listening: rows.text(i, 5)))
        }
        return listing
    }
}
