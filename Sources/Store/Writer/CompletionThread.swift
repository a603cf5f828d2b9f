/// Runs the completions of committed batches, in commit order, and lets go of
/// their jobs, on a thread of its own.
///
/// The writer is the store's one serial thread: every microsecond it spends
/// outside SQLite caps the durable writes per second. A batch's completions wake
/// the threads that wait for it (an event loop's mailbox and eventfd, a blocked
/// caller's condition variable) and then each job frees the rows and closures it
/// captured: about a tenth of the writer's time per write. Here they cost the
/// writer one hand-off per batch instead (a mutex, and a signal when this thread
/// sleeps), and run beside the next batch's inserts.
final class CompletionThread: @unchecked Sendable {
    private let monitor = Monitor()
    /// Committed batches not yet completed, oldest first.
    private var pending: [[WriteJob]] = []
    /// Emptied batch arrays going back to the writer, so that the write queue
    /// keeps appending into arrays that already have their capacity.
    private var spares: [[WriteJob]] = []
    private var sleeping = false
    private var closed = false
    private var thread: StoreThread?
    private static let maxSpares = 4

    func start() {
        thread = StoreThread(name: "store-complete") { [self] in run() }
    }

    /// Takes `batch` (whose jobs have their outcome) and leaves an empty array in its place.
    func deliver(_ batch: inout [WriteJob]) {
        monitor.lock()
        var full = spares.popLast() ?? []
        swap(&full, &batch)
        pending.append(full)
        if sleeping {
            sleeping = false
            monitor.signal()
        }
        monitor.unlock()
    }

    /// Completes what was delivered, then stops. Writer thread, after its last batch.
    func close() {
        monitor.withLock {
            closed = true
            monitor.signal()
        }
        thread?.join()
    }

    var isCurrent: Bool { thread?.isCurrent ?? false }

    private func run() {
        var taken: [[WriteJob]] = []
        while true {
            monitor.lock()
            while pending.isEmpty && !closed {
                sleeping = true
                monitor.wait()
            }
            sleeping = false
            if pending.isEmpty {
                monitor.unlock()
                return
            }
            swap(&taken, &pending)
            monitor.unlock()
            for i in taken.indices {
                for job in taken[i] { job.complete() }
                taken[i].removeAll(keepingCapacity: true)  // the jobs are freed here
            }
            monitor.withLock {
                while spares.count < Self.maxSpares, let spare = taken.popLast() { spares.append(spare) }
            }
            taken.removeAll(keepingCapacity: true)
        }
    }
}
