import Core
import Model

/// The hand-off from request threads to the writer thread (or threads: PostgreSQL's
/// concurrent writers share one queue, each taking what piled up while it was busy).
///
/// `enqueue` is what event loops pay: one uncontended mutex, an append, and a
/// condition signal only when a writer is asleep waiting for work (or lingering and
/// the batch just filled up). A writer swaps the whole pending array out under the
/// lock, so taking a batch costs no allocation.
final class WriteQueue: Sendable {
    enum Next {
        case jobs
        /// Nothing arrived within the idle timeout (time for housekeeping).
        case idle
        /// Closed and drained.
        case closed
    }

    private struct State {
        var pending: [WriteJob] = []
        var closed = false
        /// Writers asleep waiting for work, and wake-ups sent to them not yet taken: an
        /// enqueue signals only while some waiting writer has none coming (a burst of
        /// enqueues before a writer runs costs one signal, not one each).
        var writersWaiting = 0
        var wakeupsSent = 0
        var writerLingering = false
    }

    private let monitor: Monitor<State>
    let maxCount: Int
    /// Nanoseconds the writer may wait for more jobs after the first (0: never).
    let maxWait: UInt64

    init(maxCount: Int, maxWait: UInt64) {
        self.maxCount = max(maxCount, 1)
        self.maxWait = maxWait
        var state = State()
        state.pending.reserveCapacity(self.maxCount)
        monitor = Monitor(state)
    }

    /// False when the queue is closed (the job was not taken).
    func enqueue(_ job: WriteJob) -> Bool {
        monitor.withLock { s in
            if s.closed { return false }
            s.pending.append(job)
            if s.writersWaiting > s.wakeupsSent {
                s.wakeupsSent += 1
                monitor.signal()
            } else if s.writerLingering && s.pending.count >= maxCount {
                monitor.signal()
            }
            return true
        }
    }

    /// Writer side: fills `batch` (which must be empty) with up to `maxCount` jobs.
    func next(into batch: inout [WriteJob], idleTimeout: UInt64) -> Next {
        monitor.withCondition { held in
            if held.state.pending.isEmpty && !held.state.closed {
                let deadline = Clock.monotonicNanoseconds() &+ idleTimeout
                held.state.writersWaiting += 1
                defer { held.state.writersWaiting -= 1 }
                while held.state.pending.isEmpty && !held.state.closed {
                    let woken = held.wait(untilMonotonic: deadline)
                    if held.state.wakeupsSent > 0 { held.state.wakeupsSent -= 1 }
                    if !woken && held.state.pending.isEmpty { return .idle }
                }
            }
            if held.state.pending.isEmpty { return .closed }
            if maxWait > 0 && held.state.pending.count < maxCount && !held.state.closed {
                let deadline = Clock.monotonicNanoseconds() &+ maxWait
                held.state.writerLingering = true
                while held.state.pending.count < maxCount && !held.state.closed {
                    if !held.wait(untilMonotonic: deadline) { break }
                }
                held.state.writerLingering = false
            }
            if held.state.pending.count <= maxCount {
                swap(&batch, &held.state.pending)
            } else {
                batch.append(contentsOf: held.state.pending[0..<maxCount])
                held.state.pending.removeFirst(maxCount)
            }
            return .jobs
        }
    }

    /// Refuses new jobs; the writer drains what is queued, then `next` says `.closed`.
    /// Returns false when it was already closed.
    func close() -> Bool {
        monitor.withLock { s in
            if s.closed { return false }
            s.closed = true
            monitor.broadcast()
            return true
        }
    }

    var isClosed: Bool { monitor.withLock { $0.closed } }
}
