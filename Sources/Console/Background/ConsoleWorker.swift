import Core
import Store

/// The console's background thread: work too long for an event loop (the overview's
/// counts, the domains' checks) runs here, one job at a time, with a store reader of
/// its own. Visits never wait for it; a page that needs its result waits (deferred)
/// or shows the last one.
final class ConsoleWorker: Sendable {
    typealias Job = @Sendable (any StoreReader) -> Void

    private struct State {
        var jobs: [Job] = []
        var stopping = false
        var thread: OSThread?
    }
    private let monitor = Monitor(State())
    private let store: any Store
    private let readerLoop: Int

    /// `readerLoop`: the store reader that no event loop uses, which the worker's thread
    /// takes for itself (`Store.reader(loop:)`) and alone uses.
    init(store: any Store, readerLoop: Int) {
        self.store = store
        self.readerLoop = readerLoop
    }

    func start() {
        monitor.withLock { s in
            guard s.thread == nil else { return }
            s.thread = OSThread(name: "biqli-console") { [self] in run(store.reader(loop: readerLoop)) }
        }
    }

    /// Queues `job`; dropped after `stop`.
    func submit(_ job: @escaping Job) {
        monitor.withLock { s in
            guard !s.stopping else { return }
            s.jobs.append(job)
            monitor.signal()
        }
    }

    /// Lets the queued jobs finish, then ends the thread.
    func stop() {
        let running: OSThread? = monitor.withLock { s in
            s.stopping = true
            monitor.signal()
            return s.thread
        }
        running?.join()
    }

    private func run(_ reader: any StoreReader) {
        // Counting the overview takes seconds of CPU on a large workspace: it gets what the
        // loops leave, and is split into short reads (`StoreReader.workspaceActivity`).
        OSThread.lowerCurrentPriority()
        while true {
            let job: Job? = monitor.withCondition { held in
                while held.state.jobs.isEmpty && !held.state.stopping { held.wait() }
                return held.state.jobs.isEmpty ? nil : held.state.jobs.removeFirst()
            }
            guard let job else { return }
            job(reader)
        }
    }
}
