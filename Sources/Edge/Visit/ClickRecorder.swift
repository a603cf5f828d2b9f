import Store

/// Clicks whose answer does not wait for them (desktop, iOS fallback, web-only links),
/// collected per loop and handed to the store's writer once per loop pass, so that a
/// busy loop pays one queue hand-off per pass instead of one per click.
final class ClickRecorder: Sendable {
    private let store: any Store
    private let pending: PerLoop<[Click]>
    private let log: Log

    init(store: any Store, loops: Int, log: Log) {
        self.store = store
        self.log = log
        self.pending = PerLoop(count: loops) { [] }
    }

    /// Queues `click` on loop `loop`'s list. Call only on that loop's thread.
    func record(_ click: Click, loop: Int) {
        pending.with(loop) { $0.append(click) }
    }

    /// Writes loop `loop`'s queued clicks in one store job. Call only on that loop's thread.
    func flush(loop: Int) {
        let clicks: [Click] = pending.with(loop) { list in
            guard !list.isEmpty else { return [] }
            let taken = list
            list.removeAll(keepingCapacity: true)
            return taken
        }
        guard !clicks.isEmpty else { return }
        let log = self.log
        store.write(
            { tx in for click in clicks { try tx.insertClick(click) } },
            completion: { result in
                if case .failure(let error) = result {
                    log.error(
                        "click write failed", [("detail", .string("\(error)")), ("clicks", .int(Int64(clicks.count)))])
                }
            })
    }
}
