import Model
import Synchronization

/// The connection of one loop's reader, and its replacement when it breaks.
///
/// A loop must never wait long for a connection (an attempt can take the whole
/// `connect_timeout` when the server is gone). When its connection broke:
/// - a connection the store's background thread (`PGChangeListener`) left here is taken;
/// - else, when that thread's own connection is up (the server answers: a restart is
///   over), the loop connects at once, bounded by a 2 s timeout (a few milliseconds on a
///   live server);
/// - else the read fails at once with `.unavailable` and `wanted` asks the background
///   thread for a connection.
final class PGConnectionSlot: Sendable {
    private let replacement = Mutex<Parcel?>(nil)
    /// The loop found its connection broken and waits for a new one.
    let wanted = Atomic<Bool>(false)
    /// Whether the server answered the background thread lately.
    private let serverUp: @Sendable () -> Bool
    private let settings: PGConnectionSettings

    init(settings: PGConnectionSettings, serverUp: @escaping @Sendable () -> Bool) {
        self.settings = settings.withConnectTimeout(seconds: 2)
        self.serverUp = serverUp
    }

    /// The usable connection, on the loop's thread: `active` (the loop's own, which the
    /// loop keeps: `PGReader`), or what replaces it when it broke.
    func current(_ active: inout PGConnection) throws(StoreError) -> PGConnection {
        if active.isAlive() { return active }
        if let fresh = replacement.withLock({ $0.take() })?.connection, !fresh.isBroken {
            active = fresh
            return fresh
        }
        if serverUp(), let fresh = try? PGConnection.connect(settings) {
            active = fresh
            wanted.store(false, ordering: .releasing)
            return fresh
        }
        wanted.store(true, ordering: .releasing)
        throw .unavailable("the PostgreSQL connection of this loop is being re-established")
    }

    /// Background thread: hands over a new connection, which it keeps nothing of.
    func offer(_ connection: sending PGConnection) {
        let parcel = Parcel(connection)
        replacement.withLock { $0 = parcel }
        wanted.store(false, ordering: .releasing)
    }

    /// A connection on its way from the background thread to the loop. `Mutex` cannot take
    /// a non-`Sendable` value captured by its closure (the region checker of Swift 6.3
    /// treats every capture as the caller's), so it takes this box.
    // @unchecked: holds a connection the offering thread keeps nothing of (`sending`), taken whole by one loop.
    private final class Parcel: @unchecked Sendable {
        let connection: PGConnection
        init(_ connection: sending PGConnection) { self.connection = connection }
    }
}
