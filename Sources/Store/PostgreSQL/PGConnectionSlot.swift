import Model
import Synchronization

/// The connection of one loop's reader, and its replacement when it breaks.
///
/// The loop must never wait for a connection to be made (that can take the whole
/// `connect_timeout`): on a broken connection `current()` fails at once with
/// `.unavailable` and raises `wanted`; the store's background thread
/// (`PGChangeListener`) connects and leaves the new connection here; the loop takes
/// it on its next read.
final class PGConnectionSlot: Sendable {
    let initial: PGConnection
    /// The loop's connection (touched on the loop's thread only).
    private nonisolated(unsafe) var active: PGConnection
    private let replacement = Mutex<PGConnection?>(nil)
    /// The loop found its connection broken and waits for a new one.
    let wanted = Atomic<Bool>(false)

    init(_ connection: PGConnection) {
        initial = connection
        active = connection
    }

    /// The usable connection, on the loop's thread.
    func current() throws(StoreError) -> PGConnection {
        if !active.isBroken { return active }
        if let fresh = replacement.withLock({ slot -> PGConnection? in
            let value = slot
            slot = nil
            return value
        }) {
            active = fresh
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
