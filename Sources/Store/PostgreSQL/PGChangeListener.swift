import CSystem
import Core
import Model
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL store's background thread: learns of changes other processes
/// committed (the CLI, another edge) and keeps the loops' connections alive.
///
/// - Push: a connection that `LISTEN`s on `biqli_changes`, which the schema's
///   triggers notify on every change of domains, apps, links and keys. A
///   notification sent by the writer's own connection is ignored (the writer
///   published precise invalidations itself).
/// - Polling fallback, for a notification lost with a dropped connection: every
///   `pollInterval` it reads `store_state`'s change counters; counters beyond what the
///   writer's own changes left them at mean someone else changed something.
/// Either way it asks the writer to drop every cache (`onExternalChange`): the writer
/// reloads the catalog and publishes in order with its own changes.
/// - Repairs: a loop whose connection broke raised its slot's `wanted`; a new
///   connection is made here, so that no loop ever waits for one.
final class PGChangeListener: Sendable {
    private let settings: PGConnectionSettings
    private let slots: [PGConnectionSlot]
    private let writer: PGWriter
    private let onExternalChange: @Sendable () -> Void
    private let pollInterval: UInt64
    private let stopFD: Int32
    private let stopped = Atomic<Bool>(false)
    private let thread = AtomicLazyReference<OSThread>()
    /// The listening connection is up (for `/healthz` and `/metrics`).
    let connected = Atomic<Bool>(false)
    let externalChanges = Atomic<Int>(0)

    /// What the thread alone knows: made on it, in `start`.
    private struct Session {
        var db: PGConnection?
        var lastSeen: (catalog: Int64, keys: Int64)?
        var nextPoll: UInt64 = 0
        var nextAttempt: UInt64 = 0
        var backoff: UInt64 = PGWriter.minimumBackoff
    }

    init(
        settings: PGConnectionSettings, slots: [PGConnectionSlot], writer: PGWriter, pollMilliseconds: Int,
        onExternalChange: @escaping @Sendable () -> Void
    ) {
        self.settings = settings
        self.slots = slots
        self.writer = writer
        self.pollInterval = UInt64(max(pollMilliseconds, 10)) * 1_000_000
        self.onExternalChange = onExternalChange
        self.stopFD = csys_eventfd()
    }

    func start() {
        let started = OSThread(name: "store-listen") { [self] in
            var session = Session()
            run(&session)
        }
        precondition(thread.storeIfNil(started) === started, "the store's listener started twice")
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(stopFD, &one, 8)
        thread.load()?.join()
        close(stopFD)
    }

    private func run(_ s: inout Session) {
        while !stopped.load(ordering: .acquiring) {
            let now = Clock.monotonicNanoseconds()
            if s.db == nil || s.db!.isBroken { connect(&s, now: now) }
            repairSlots()
            var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            if let db = s.db { fds.append(pollfd(fd: db.socket, events: Int16(POLLIN), revents: 0)) }
            let wait = min(pollInterval, 250_000_000) / 1_000_000
            _ = poll(&fds, nfds_t(fds.count), Int32(wait))
            if fds[0].revents != 0 { break }
            var external = false
            if let db = s.db {
                do throws(StoreError) {
                    let own = writer.backendPID.load(ordering: .acquiring)
                    for note in try db.notifications() where note.sender != own { external = true }
                    if Clock.monotonicNanoseconds() >= s.nextPoll {
                        s.nextPoll = Clock.monotonicNanoseconds() &+ pollInterval
                        external = try countersMoved(db, &s) || external
                    }
                } catch {
                    dropConnection(&s)
                }
            }
            if external {
                externalChanges.add(1, ordering: .relaxed)
                onExternalChange()
            }
        }
        s.db = nil
    }

    private func connect(_ s: inout Session, now: UInt64) {
        if s.db != nil { dropConnection(&s) }
        guard now >= s.nextAttempt else { return }
        do throws(StoreError) {
            let connection = try PGConnection.connect(settings)
            try connection.execute("LISTEN biqli_changes")
            s.db = connection
            connected.store(true, ordering: .releasing)
            s.backoff = PGWriter.minimumBackoff
            // Changes made while nobody listened are unknown: the counters tell.
            s.nextPoll = 0
        } catch {
            // Short waits: this connection tells the loops when the server is back.
            s.backoff = min(s.backoff * 2, PGChangeListener.maximumBackoff)
            s.nextAttempt = now &+ s.backoff
        }
    }

    static let maximumBackoff: UInt64 = 250_000_000

    private func dropConnection(_ s: inout Session) {
        s.db = nil
        connected.store(false, ordering: .releasing)
        s.nextAttempt = Clock.monotonicNanoseconds() &+ s.backoff
    }

    /// True when the change counters moved past what the writer's own changes explain.
    private func countersMoved(_ db: PGConnection, _ s: inout Session) throws(StoreError) -> Bool {
        let row = try db.run("listener_versions", "SELECT catalog_version, keys_version FROM store_state")
        guard row.rowCount == 1 else { return false }
        let current = (catalog: row.int(0, 0), keys: row.int(0, 1))
        defer { s.lastSeen = current }
        guard let last = s.lastSeen, current != last else { return false }
        let own = writer.ownVersions.withLock { $0 }
        return current != own
    }

    private func repairSlots() {
        for slot in slots where slot.wanted.load(ordering: .acquiring) {
            // Not `try?`: Swift 6.3's region checker loses track of its result (and refuses the hand-over).
            let connection: PGConnection
            do throws(StoreError) {
                connection = try PGConnection.connect(settings)
            } catch {
                return
            }
            slot.offer(connection)
        }
    }
}
