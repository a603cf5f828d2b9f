import Core
import Store

/// Clicks whose answer does not wait for them (desktop, iOS fallback, web-only links)
/// and preview-bot visits (counted, never stored as clicks), collected per loop and
/// handed to the store's writer once per loop pass, so that a busy loop pays one queue
/// hand-off per pass instead of one per visit.
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

    init(store: any Store, loops: Int, log: Log) {
        self.store = store
        self.log = log
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
        let clicks = taken.clicks
        let previews = taken.previews
        let log = self.log
        store.write(
            { tx in
                for click in clicks { try tx.insertClick(click) }
                for p in previews { try tx.countPreview(appId: p.appId, linkId: p.linkId, platform: .bot, at: p.at) }
            },
            completion: { result in
                if case .failure(let error) = result {
                    log.error(
                        "click write failed", [("detail", .string("\(error)")), ("clicks", .int(Int64(clicks.count)))])
                }
            })
    }
}
