import Core
import Model
import Store
import Synchronization

/// Clicks whose answer does not wait for them (desktop, iOS fallback, web-only links)
/// and preview-bot visits (counted, never stored as clicks), collected per loop and
/// handed to the store's writer once per loop pass, so that a busy loop pays one queue
/// hand-off per pass instead of one per visit.
///
/// Nobody waits for these writes, so one that meets another process's lock on the
/// database is tried again for up to `lockRetryMilliseconds` rather than lost. While the store cannot
/// write, they pile up in memory (about 25 MB a second at 50,000 desktop visits a
/// second): past `waitingLimit` clicks waiting for the store, new ones are dropped and
/// counted (`droppedCount`, `biqli_clicks_dropped_total`) instead.
final class ClickRecorder: ClickRecording {
    struct Preview: Sendable {
        var appId: String?
        var linkId: String
        var at: Int64
    }

    private struct Pending {
        var clicks: [Click] = []
        var previews: [Preview] = []
        /// The loop's own click-id sequence (no lock shared between loops).
        var ids = ULIDGenerator()
    }

    private let store: any Store
    private let pending: PerLoop<Pending>
    /// Most clicks handed to the store and not yet written or given up.
    let waitingLimit: Int
    /// How long a write that met another process's lock on the database is tried again
    /// (each try waits the store's lock wait, shortened while the lock lasts) before its
    /// clicks are given up; other failures are not retried.
    let lockRetryMilliseconds: UInt64
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let writeFailures: LogThrottle
    private let drops: LogThrottle

    init(
        store: any Store, loops: Int, log: Log, waitingLimit: Int = 200_000, lockRetryMilliseconds: UInt64 = 60_000
    ) {
        self.store = store
        self.waitingLimit = waitingLimit
        self.lockRetryMilliseconds = lockRetryMilliseconds
        self.writeFailures = LogThrottle("click write failed", log: log)
        self.drops = LogThrottle("clicks dropped: the store is not writing", log: log)
        self.pending = PerLoop(count: loops) { Pending() }
    }

    /// A new click id (`biq_clk_` + ULID of `at`) from loop `loop`'s sequence. Call only
    /// on that loop's thread.
    func newId(at: Int64, loop: Int) -> String {
        pending.with(loop) { $0.ids.make(prefix: Identifier.clickPrefix, milliseconds: UInt64(max(at, 0))) }
    }

    /// Queues `click` on loop `loop`'s list. Call only on that loop's thread.
    func record(_ click: Click, loop: Int) {
        pending.with(loop) { $0.clicks.append(click) }
    }

    /// Queues a preview bot's visit for the analytics counters. Call only on that loop's thread.
    func recordPreview(appId: String?, linkId: String, at: Int64, loop: Int) {
        pending.with(loop) { $0.previews.append(Preview(appId: appId, linkId: linkId, at: at)) }
    }

    /// Writes loop `loop`'s queued visits in one store job. Call only on that loop's thread.
    func flush(loop: Int) {
        let taken: Pending? = pending.with(loop) { p in
            guard !p.clicks.isEmpty || !p.previews.isEmpty else { return nil }
            let taken = p
            p.clicks.removeAll(keepingCapacity: true)
            p.previews.removeAll(keepingCapacity: true)
            return taken
        }
        guard let taken else { return }
        let count = taken.clicks.count + taken.previews.count
        guard waiting.add(count, ordering: .relaxed).newValue <= waitingLimit else {
            waiting.subtract(count, ordering: .relaxed)
            drop(count)
            return
        }
        submit(clicks: taken.clicks, previews: taken.previews, attempt: 1, lockedSince: nil)
    }

    /// `lockedSince`: when this write first met a lock (monotonic nanoseconds).
    private func submit(clicks: [Click], previews: [Preview], attempt: Int, lockedSince: UInt64?) {
        store.write(
            { tx in
                for click in clicks { try tx.insertClick(click) }
                for p in previews { try tx.countPreview(appId: p.appId, linkId: p.linkId, platform: .bot, at: p.at) }
            },
            completion: { [self] result in
                if case .failure(let error) = result {
                    // Runs on the writer thread: a write submitted from here joins a later batch.
                    if error.isTransient {
                        let now = Clock.monotonicNanoseconds()
                        let since = lockedSince ?? now
                        // A database server that is away (PostgreSQL restarting) is waited
                        // for as long as it takes: the count of waiting clicks is bounded
                        // instead. A lock another process holds is waited for a minute.
                        let unreachable: Bool
                        if case .unavailable = error { unreachable = true } else { unreachable = false }
                        if unreachable || now &- since < lockRetryMilliseconds * 1_000_000 {
                            submit(clicks: clicks, previews: previews, attempt: attempt + 1, lockedSince: since)
                            return
                        }
                    }
                    writeFailures.write {
                        [
                            ("detail", .string("\(error)")), ("clicks", .int(Int64(clicks.count))),
                            ("attempts", .int(Int64(attempt))),
                        ]
                    }
                }
                waiting.subtract(clicks.count + previews.count, ordering: .relaxed)
            })
    }

    private func drop(_ count: Int) {
        let total = dropped.add(count, ordering: .relaxed).newValue
        drops.write {
            [("waiting", .int(Int64(waiting.load(ordering: .relaxed)))), ("droppedTotal", .int(Int64(total)))]
        }
    }

    /// Clicks and preview visits handed to the store and not yet written or given up.
    var waitingCount: Int { waiting.load(ordering: .relaxed) }
    /// Clicks and preview visits dropped because `waitingLimit` were waiting already.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
