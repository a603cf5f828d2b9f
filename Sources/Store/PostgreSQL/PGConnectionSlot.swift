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
    let initial: PGConnection
    /// The loop's connection (touched on the loop's thread only).
    private nonisolated(unsafe) var active: PGConnection
    private let replacement = Mutex<PGConnection?>(nil)
    /// The loop found its connection broken and waits for a new one.
    let wanted = Atomic<Bool>(false)
    /// Whether the server answered the background thread lately.
    private let serverUp: @Sendable () -> Bool
    private let settings: PGConnectionSettings

    init(_ connection: PGConnection, settings: PGConnectionSettings, serverUp: @escaping @Sendable () -> Bool) {
        initial = connection
        active = connection
        self.settings = settings.withConnectTimeout(seconds: 2)
        self.serverUp = serverUp
    }

    /// The usable connection, on the loop's thread.
    func current() throws(StoreError) -> PGConnection {
        if active.isAlive() { return active }
        if let fresh = replacement.withLock({ slot -> PGConnection? in
            let value = slot
            slot = nil
            return value
        }), !fresh.isBroken {
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

    /// Background thread: hands over a new connection.
    func offer(_ connection: PGConnection) {
        replacement.withLock { $0 = connection }
        wanted.store(false, ordering: .releasing)
    }
}
