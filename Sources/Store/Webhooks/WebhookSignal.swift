import Core

/// Wakes this process's delivery threads when a write body put rows in the outbox, so
/// that an event goes out without waiting for their next poll. Raised before the commit:
/// a thread woken too early finds nothing yet and looks again shortly (decision 0028).
public enum WebhookSignal {
    private static let generation = Monitor<UInt64>(0)

    static func raise() {
        generation.withLock { $0 &+= 1 }
        generation.broadcast()
    }

    /// Wakes every waiting thread (a dispatcher stopping).
    public static func wake() { raise() }

    /// The current generation, to wait for a later one.
    public static var current: UInt64 { generation.withLock { $0 } }

    /// Waits until the generation differs from `seen` or `milliseconds` pass; returns the
    /// generation then.
    public static func wait(after seen: UInt64, milliseconds: Int) -> UInt64 {
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(max(0, milliseconds)) * 1_000_000
        return generation.withCondition { held in
            while held.state == seen {
                if !held.wait(untilMonotonic: deadline) { break }
            }
            return held.state
        }
    }
}
