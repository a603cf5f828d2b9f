import Core
import Store

/// The console's background thread: work too long for an event loop (the overview's
/// counts, the domains' checks) runs here, one job at a time, with a store reader of
/// its own. Visits never wait for it; a page that needs its result waits (deferred)
/// or shows the last one.
final class ConsoleWorker: @unchecked Sendable {
    typealias Job = @Sendable (any StoreReader) -> Void

    private let monitor = Monitor()
    private var jobs: [Job] = []
    private var stopping = false
    private var thread: OSThread?
    private let reader: any StoreReader

    /// `reader`: used only from the worker's thread.
    init(reader: any StoreReader) {
        self.reader = reader
    }

    func start() {
        monitor.withLock {
            guard thread == nil else { return }
            thread = OSThread(name: "biqli-console") { [self] in run() }
        }
    }

    /// Queues `job`; dropped after `stop`.
    func submit(_ job: @escaping Job) {
        monitor.withLock {
            guard !stopping else { return }
            jobs.append(job)
            monitor.signal()
        }
    }

    /// Lets the queued jobs finish, then ends the thread.
    func stop() {
        let running: OSThread? = monitor.withLock {
            stopping = true
            monitor.signal()
            return thread
        }
        running?.join()
    }

    private func run() {
        // Counting the overview takes seconds of CPU on a large workspace: it gets what the
        // loops leave, and is split into short reads (`StoreReader.workspaceActivity`).
        OSThread.lowerCurrentPriority()
        while true {
            let job: Job? = monitor.withLock {
                while jobs.isEmpty && !stopping { monitor.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let job else { return }
            job(reader)
        }
    }
}
