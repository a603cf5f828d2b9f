import Core
import Store
import Synchronization

/// Clicks whose answer does not wait for them (desktop, iOS fallback, web-only links)
/// and preview-bot visits (counted, never stored as clicks), collected per loop and
/// handed to the store's writer once per loop pass, so that a busy loop pays one queue
/// hand-off per pass instead of one per visit. Nobody waits for these writes, so one that
/// meets another process's lock is tried again (`lockedAttempts`) rather than lost.
final class ClickRecorder: Sendable {
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
    private let log: Log
    /// Most clicks held for another try at once: a lock that lasts would otherwise keep
    /// a minute of clicks in memory; past this, a failed write is given up at once.
    let retainedLimit: Int
    /// Clicks of the writes now waiting for another try.
    private let retained = Atomic<Int>(0)

    init(store: any Store, loops: Int, log: Log, retainedLimit: Int = 100_000) {
        self.store = store
        self.log = log
        self.retainedLimit = retainedLimit
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
        submit(clicks: taken.clicks, previews: taken.previews, attempt: 1)
    }

    /// Writes that met another process's lock on the database are tried again this many
    /// times in all (each try waits the store's lock wait first: about a minute with the
    /// default 5 s) before their clicks are given up; other failures are not retried.
    static let lockedAttempts = 12

    private func submit(clicks: [Click], previews: [Preview], attempt: Int) {
        store.write(
            { tx in
                for click in clicks { try tx.insertClick(click) }
                for p in previews { try tx.countPreview(appId: p.appId, linkId: p.linkId, platform: .bot, at: p.at) }
            },
            completion: { [self] result in
                // A try of a held write ended: it is no longer waiting for one.
                if attempt > 1 { retained.subtract(clicks.count, ordering: .relaxed) }
                guard case .failure(let error) = result else { return }
                // Runs on the writer thread: a write submitted from here joins a later batch.
                if error.isLockTimeout && attempt < Self.lockedAttempts && hold(clicks.count) {
                    submit(clicks: clicks, previews: previews, attempt: attempt + 1)
                    return
                }
                log.error(
                    "click write failed",
                    [
                        ("detail", .string("\(error)")), ("clicks", .int(Int64(clicks.count))),
                        ("attempts", .int(Int64(attempt))),
                    ])
            })
    }

    /// Counts `count` clicks as held for another try, unless that passes `retainedLimit`.
    private func hold(_ count: Int) -> Bool {
        let after = retained.add(count, ordering: .relaxed).newValue
        if after <= retainedLimit { return true }
        retained.subtract(count, ordering: .relaxed)
        return false
    }

    /// Clicks now held for another try (tests).
    var retainedCount: Int { retained.load(ordering: .relaxed) }
}
