import Core
import Model

/// The hand-off from request threads to the writer thread.
///
/// `enqueue` is what event loops pay: one uncontended mutex, an append, and a
/// condition signal only when the writer is asleep waiting for work (or
/// lingering and the batch just filled up). The writer swaps the whole pending
/// array out under the lock, so taking a batch costs no allocation.
final class WriteQueue: @unchecked Sendable {
    enum Next {
        case jobs
        /// Nothing arrived within the idle timeout (time for housekeeping).
        case idle
        /// Closed and drained.
        case closed
    }

    private let monitor = Monitor()
    private var pending: [WriteJob] = []
    private var closed = false
    private var writerWaiting = false
    private var writerLingering = false
    let maxCount: Int
    /// Nanoseconds the writer may wait for more jobs after the first (0: never).
    let maxWait: UInt64

    init(maxCount: Int, maxWait: UInt64) {
        self.maxCount = max(maxCount, 1)
        self.maxWait = maxWait
        pending.reserveCapacity(self.maxCount)
    }

    /// False when the queue is closed (the job was not taken).
    func enqueue(_ job: WriteJob) -> Bool {
        monitor.lock()
        if closed {
            monitor.unlock()
            return false
        }
        pending.append(job)
        if writerWaiting || (writerLingering && pending.count >= maxCount) {
            writerWaiting = false
            monitor.signal()
        }
        monitor.unlock()
        return true
    }

    /// Writer side: fills `batch` (which must be empty) with up to `maxCount` jobs.
    func next(into batch: inout [WriteJob], idleTimeout: UInt64) -> Next {
        monitor.lock()
        defer { monitor.unlock() }
        if pending.isEmpty && !closed {
            let deadline = Clock.monotonicNanoseconds() &+ idleTimeout
            while pending.isEmpty && !closed {
                writerWaiting = true
                if !monitor.wait(untilMonotonic: deadline) && pending.isEmpty {
                    writerWaiting = false
                    return .idle
                }
            }
            writerWaiting = false
        }
        if pending.isEmpty { return .closed }
        if maxWait > 0 && pending.count < maxCount && !closed {
            let deadline = Clock.monotonicNanoseconds() &+ maxWait
            writerLingering = true
            while pending.count < maxCount && !closed {
                if !monitor.wait(untilMonotonic: deadline) { break }
            }
            writerLingering = false
        }
        if pending.count <= maxCount {
            swap(&batch, &pending)
        } else {
            batch.append(contentsOf: pending[0..<maxCount])
            pending.removeFirst(maxCount)
        }
        return .jobs
    }

    /// Refuses new jobs; the writer drains what is queued, then `next` says `.closed`.
    /// Returns false when it was already closed.
    func close() -> Bool {
        monitor.withLock {
            if closed { return false }
            closed = true
            monitor.broadcast()
            return true
        }
    }

    var isClosed: Bool { monitor.withLock { closed } }
}
