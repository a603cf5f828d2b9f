import Core
import Model
import Store
import Synchronization

/// The overview's counts, taken on the worker (a scan of every link's daily counts of
/// the period: seconds on a large workspace, never on an event loop) and kept. A page
/// gets the last count at once; when it is older than `refreshMilliseconds`, a new one
/// is started in the background and the next page shows it (stale while revalidating).
/// Before the first count, a page waits for it.
final class OverviewCache: Sendable {
    private struct State {
        var snapshot: OverviewSnapshot?
        var counting = false
        /// Pages waiting for the first count.
        var waiting: [@Sendable (OverviewSnapshot?) -> Void] = []
    }

    private let state = Mutex(State())
    private let worker: ConsoleWorker
    private let configuration: ConsoleConfiguration
    private let now: @Sendable () -> Int64
    private let log: Logger
    private let counted: @Sendable (Bool) -> Void

    init(
        worker: ConsoleWorker, configuration: ConsoleConfiguration, now: @escaping @Sendable () -> Int64,
        log: Logger,
        counted: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        self.worker = worker
        self.configuration = configuration
        self.now = now
        self.log = log
        self.counted = counted
    }

    /// The last count, and a recount started when it is stale or missing. Nil: none yet;
    /// `whenCounted` then gets the first (nil if it failed), on the worker's thread.
    func snapshot(whenCounted: @escaping @Sendable (OverviewSnapshot?) -> Void) -> OverviewSnapshot? {
        let current = now()
        let (snapshot, start): (OverviewSnapshot?, Bool) = state.withLock { s in
            let stale =
                s.snapshot.map { current - $0.countedAt >= configuration.overviewRefreshSeconds * 1_000 } ?? true
            let start = stale && !s.counting
            if start { s.counting = true }
            if s.snapshot == nil { s.waiting.append(whenCounted) }
            return (s.snapshot, start)
        }
        if start { count() }
        return snapshot
    }

    /// Starts a count now (at start-up, so that the first page need not wait).
    func warm() {
        let start = state.withLock { s in
            if s.counting { return false }
            s.counting = true
            return true
        }
        if start { count() }
    }

    private func count() {
        worker.submit { [self] reader in
            let snapshot = take(reader)
            let waiting = state.withLock { s in
                if let snapshot { s.snapshot = snapshot }
                s.counting = false
                defer { s.waiting = [] }
                return s.waiting
            }
            for page in waiting { page(snapshot ?? state.withLock { $0.snapshot }) }
        }
    }

    private func take(_ reader: any ConsoleReading & LinkReading) -> OverviewSnapshot? {
        let started = now()
        let days = configuration.overviewDays
        let today = LinkAnalytics.day(of: started)
        let first = today - Int64(days) + 1
        do {
            let activity = try reader.workspaceActivity(
                fromDay: first, throughDay: today, topLinks: configuration.topLinks)
            // The days before, for the totals' changes (their top links are not wanted).
            let before = try reader.workspaceActivity(
                fromDay: first - Int64(days), throughDay: first - 1, topLinks: 0)
            var top: [OverviewSnapshot.TopLink] = []
            for entry in activity.topLinks {
                let link = try reader.link(id: entry.linkId)
                top.append(.init(id: entry.linkId, shortUrl: link?.shortUrl, url: link?.url, clicks: entry.clicks))
            }
            let snapshot = OverviewSnapshot(
                countedAt: started, firstDay: first, days: days, activity: activity, before: before, topLinks: top)
            log.info("console overview counted", [("milliseconds", .string(String(now() - started)))])
            counted(true)
            return snapshot
        } catch {
            // The store's failure stays here: the overview keeps its last count (or says
            // none yet), the other pages and every visit go on (decision 0029).
            log.error("console overview failed", [("detail", .string("\(error)"))])
            counted(false)
            return nil
        }
    }
}
