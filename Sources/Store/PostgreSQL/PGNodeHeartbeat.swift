import CSystem
import Core
import Model
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A node's row in `nodes`, kept fresh: claimed at start-up, then written every
/// `interval` by a thread of its own on a connection of its own (never a loop, never the
/// writer: a slow database delays nothing else). A failed heartbeat is tried again at
/// the next tick, reconnecting when needed; `report` hears when heartbeats start
/// failing and when they resume, not every failure.
///
/// One live process per name. The heartbeat's connection holds a session advisory lock
/// on the name for the process's lifetime: the server drops it the moment the process
/// ends, however it ends, so a restart (after a crash, a `kill -9`, a deploy) claims the
/// name at once. A second process claiming a name whose lock is held and whose row had
/// a heartbeat within `liveWithinMilliseconds` is refused (`nameTaken`). A lock held
/// without recent heartbeats is a process cut off from the database (or a server that
/// has not noticed a dead client yet): the name is taken over after 15 s. Claims are
/// serialised by a transaction lock, so two processes starting at once cannot both win.
public final class PGNodeHeartbeat: Sendable {
    public struct Identity: Sendable, Equatable {
        public var name: String
        public var version: String
        /// The newest schema version the binary knows (`PGStore.knownSchemaVersion`).
        public var schemaVersion: Int

        public init(name: String, version: String, schemaVersion: Int) {
            self.name = name
            self.version = version
            self.schemaVersion = schemaVersion
        }
    }

    /// Why a claim failed.
    public enum ClaimError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Another process runs under this name: its last heartbeat was this long ago,
        /// from these listeners.
        case nameTaken(name: String, millisecondsAgo: Int64, listening: String)
        case store(StoreError)

        public var description: String {
            switch self {
            case .nameTaken(let name, let ago, let listening):
                let whereabouts = listening.isEmpty || listening == PGNodeHeartbeat.starting ? "" : " (\(listening))"
                return "another biqli-edge runs as node \"\(name)\"\(whereabouts): its last heartbeat was "
                    + "\(max(ago, 0) / 1_000) s ago; give each edge its own BIQLI_EDGE_NODE"
            case .store(let error): return "cannot record the node in PostgreSQL: \(error.safeMessage)"
            }
        }
    }

    /// What `report` hears.
    public enum Event: Sendable, Equatable {
        /// Heartbeats fail (the first failure after a success); tried again every interval.
        case failing(String)
        /// A heartbeat got through again.
        case resumed
        /// After a reconnect the name's lock was held by another process (which took the
        /// name while this one was cut off): two processes now write this row.
        case nameHeldElsewhere
    }

    /// A heartbeat older than this means the process is gone (or cut off).
    public static let liveWithinMilliseconds: Int64 = 15_000
    public static let defaultIntervalMilliseconds = 5_000
    /// `listening` between the claim and the listeners' start.
    public static let starting = "starting"

    /// The server's clock in epoch milliseconds, in SQL.
    static let nowSQL = "CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint)"
    /// Serialises claims (a transaction lock; with the project's other single-key locks).
    static let claimLockKey: Int64 = 0x6269_716C_6920
    /// The two-key advisory lock space of node names ("bino"); the second key is the
    /// name's hash.
    static let nameLockClass: Int64 = 0x6269_6E6F

    public let identity: Identity
    /// When this process claimed the name (the server's clock).
    public let startedAt: Int64
    public let beats = Atomic<Int>(0)
    public let failures = Atomic<Int>(0)

    private let settings: PGConnectionSettings
    private let intervalNanoseconds: UInt64
    private let report: @Sendable (Event) -> Void
    private let listening: Mutex<String>
    private let wakeFD: Int32
    private let wanted = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<OSThread?>(nil)

    /// What only the heartbeat thread touches, handed to it whole at start.
    private struct Pulse {
        var db: PGConnection?
        var holdsName: Bool
        var failing = false
    }

    private init(
        settings: PGConnectionSettings, identity: Identity, listening: String, intervalMilliseconds: Int,
        claim: Claim, report: @escaping @Sendable (Event) -> Void
    ) {
        self.settings = settings.withConnectTimeout(seconds: 3)
        self.identity = identity
        self.listening = Mutex(listening)
        self.intervalNanoseconds = UInt64(max(intervalMilliseconds, 10)) * 1_000_000
        self.startedAt = claim.startedAt
        self.report = report
        self.wakeFD = csys_eventfd()
    }

    /// Claims `identity.name` (refusing a name another live process holds), writes the
    /// first heartbeat with `listening` (`starting` until the listeners are up) and
    /// starts the thread.
    public static func start(
        settings: PGConnectionSettings, identity: Identity, listening: String = PGNodeHeartbeat.starting,
        intervalMilliseconds: Int = PGNodeHeartbeat.defaultIntervalMilliseconds,
        report: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(ClaimError) -> PGNodeHeartbeat {
        let db: PGConnection
        do throws(StoreError) {
            db = try connect(settings)
        } catch {
            throw .store(error)
        }
        let claim = try Self.claim(on: db, identity: identity, listening: listening)
        let heartbeat = PGNodeHeartbeat(
            settings: settings, identity: identity, listening: listening, intervalMilliseconds: intervalMilliseconds,
            claim: claim, report: report)
        var pulse = Pulse(db: db, holdsName: claim.holdsName)
        let thread = OSThread.start(name: "node-heartbeat") { [heartbeat] in heartbeat.run(&pulse) }
        heartbeat.thread.withLock { $0 = thread }
        return heartbeat
    }

    /// The listeners to report: written at once, then with every heartbeat.
    public func update(listening text: String) {
        listening.withLock { $0 = text }
        wanted.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Stops the heartbeats; the last one says the node stopped (empty `listening`).
    /// Closing the connection releases the name.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        thread.withLock { $0 }?.join()
        close(wakeFD)
    }

    // MARK: the thread

    private func run(_ pulse: inout Pulse) {
        var next = Clock.monotonicNanoseconds() &+ intervalNanoseconds
        while !stopping.load(ordering: .acquiring) {
            let now = Clock.monotonicNanoseconds()
            let waitMilliseconds = next > now ? (next - now) / 1_000_000 : 0
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(min(waitMilliseconds, 60_000)))
            if fds[0].revents != 0 {
                var value: UInt64 = 0
                _ = read(wakeFD, &value, 8)
            }
            if stopping.load(ordering: .acquiring) { break }
            let asked = wanted.exchange(false, ordering: .acquiringAndReleasing)
            guard asked || Clock.monotonicNanoseconds() >= next else { continue }
            beat(&pulse, listening: listening.withLock { $0 })
            next = Clock.monotonicNanoseconds() &+ intervalNanoseconds
        }
        if let db = pulse.db, db.isAlive() {
            _ = try? record(db, listening: "")
        }
        pulse.db = nil
    }

    private func beat(_ pulse: inout Pulse, listening text: String) {
        do throws(StoreError) {
            let db: PGConnection
            if let current = pulse.db, current.isAlive() {
                db = current
                if !pulse.holdsName { pulse.holdsName = try Self.lockName(on: db, identity.name) }
            } else {
                pulse.db = nil
                db = try Self.connect(settings)
                let held = try Self.lockName(on: db, identity.name)
                if !held && pulse.holdsName { report(.nameHeldElsewhere) }
                pulse.holdsName = held
                pulse.db = db
            }
            try record(db, listening: text)
            beats.add(1, ordering: .relaxed)
            if pulse.failing {
                pulse.failing = false
                report(.resumed)
            }
        } catch {
            pulse.db = nil
            failures.add(1, ordering: .relaxed)
            if !pulse.failing {
                pulse.failing = true
                report(.failing(error.safeMessage))
            }
        }
    }

    private func record(_ db: PGConnection, listening text: String) throws(StoreError) {
        var p = PGParams()
        p.text(identity.name)
        p.text(identity.version)
        p.int(Int64(identity.schemaVersion))
        p.int(startedAt)
        p.text(text)
        try db.run(
            "node_beat",
            """
            WITH t AS (SELECT \(Self.nowSQL) AS ms)
            INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening)
            SELECT $1, $2, $3, $4, t.ms, $5 FROM t
            ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, schema_version = EXCLUDED.schema_version,
                started_at = EXCLUDED.started_at, heartbeat_at = EXCLUDED.heartbeat_at, listening = EXCLUDED.listening
            """, p)
    }
}
