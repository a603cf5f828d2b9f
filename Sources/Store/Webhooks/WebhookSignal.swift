import Core
import Synchronization

/// Wakes a store's delivery threads when a write body put rows in the outbox, so that an
/// event goes out without waiting for their next poll. Raised before the commit: a thread
/// woken too early finds nothing yet and looks again shortly (decision 0028).
///
/// One per store (`SQLiteStore.webhookSignal`, `PGStore.webhookSignal`), handed to its
/// transactions and to the dispatcher that delivers its outbox: two stores in one process
/// (the tests', `migrate-store`'s) wake only their own threads.
///
/// Raising costs an atomic increment, and a lock and a signal only while a thread sleeps:
/// the resolver raises it for every open that has a subscriber.
public final class WebhookSignal: Sendable {
    private let generation = Atomic<UInt64>(0)
    private let sleepers = Atomic<Int>(0)
    private let monitor = Monitor<Int>(0)

    public init() {}

    /// Rows were written: wakes one sleeping thread.
    public func raise() {
        generation.add(1, ordering: .sequentiallyConsistent)
        guard sleepers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        // Taking the lock orders this after a sleeper's check: it is waiting, or will see
        // the new generation.
        monitor.withLock { _ in }
        monitor.signal()
    }

    /// Wakes every sleeping thread (a dispatcher stopping, or work for all of them).
    public func wake() {
        generation.add(1, ordering: .sequentiallyConsistent)
        monitor.withLock { _ in }
        monitor.broadcast()
    }

    /// The current generation, to wait for a later one.
    public var current: UInt64 { generation.load(ordering: .sequentiallyConsistent) }

    /// Waits until the generation differs from `seen` or `milliseconds` pass; returns the
    /// generation then.
    public func wait(after seen: UInt64, milliseconds: Int) -> UInt64 {
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(max(0, milliseconds)) * 1_000_000
        monitor.withCondition { held in
            sleepers.add(1, ordering: .sequentiallyConsistent)
            while generation.load(ordering: .sequentiallyConsistent) == seen {
                if !held.wait(untilMonotonic: deadline) { break }
            }
            sleepers.subtract(1, ordering: .sequentiallyConsistent)
        }
        return current
    }
}
