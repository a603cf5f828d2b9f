import Core
import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The thread that shares the resolver's buckets with the other nodes on the database
/// (decision 0016): every `interval` it collects the keys the loops touched, publishes
/// this node's admissions and reads the others' through `FleetCounters` (one round trip),
/// and folds the answer into the buckets. The loops never wait for it.
///
/// When exchanges fail for longer than `failOpenAfter` (the database is away), the
/// buckets act as a lone node's again (no shares), and the keys stay listed so that
/// their counts are published once the database is back. What it did is counted for
/// `/metrics` (`statistics`): syncs, failures, the time since the last sync, and what
/// the buckets admitted while the node decided alone.
final class FleetSync: Sendable {
    let limiters: ResolverLimiters
    let counters: any FleetCounters
    let intervalMilliseconds: Int64
    let failOpenAfterMilliseconds: Int64
    /// Most keys in one exchange (the rest wait for the next).
    let maxKeysPerExchange: Int
    private let clock: @Sendable () -> Int64
    private let onError: @Sendable (String) -> Void
    private let stopped = Atomic<Bool>(false)
    /// The clock at the last successful exchange (0: none yet).
    private let lastSuccess = Atomic<Int64>(0)
    private let failuresInARow = Atomic<Int>(0)
    private let syncs = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    /// The clock when the sync was made: the age of "the last sync" before the first.
    private let createdAt: Int64
    private let thread = Mutex<OSThread?>(nil)

    init(
        limiters: ResolverLimiters, counters: any FleetCounters, intervalMilliseconds: Int64 = 100,
        failOpenAfterMilliseconds: Int64 = 1_000, maxKeysPerExchange: Int = 20_000,
        clock: @escaping @Sendable () -> Int64 = { Int64(Clock.nowMilliseconds()) },
        onError: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.limiters = limiters
        self.counters = counters
        self.intervalMilliseconds = max(1, intervalMilliseconds)
        self.failOpenAfterMilliseconds = failOpenAfterMilliseconds
        self.maxKeysPerExchange = maxKeysPerExchange
        self.clock = clock
        self.onError = onError
        createdAt = clock()
    }

    /// One exchange, now (the thread's step; tests call it directly).
    func syncOnce() throws(StoreError) {
        let now = clock()
        var counts: [FleetCount] = []
        var taken: [(limiter: RateLimiter, published: [RateLimiter.Published])] = []
        for (bucket, limiter) in limiters.numbered {
            let published = limiter.collect(limit: maxKeysPerExchange - counts.count)
            taken.append((limiter, published))
            for p in published {
                counts.append(FleetCount(bucket: bucket, key: p.key, added: p.added, ownTAT: p.ownTAT))
            }
        }
        let answer: FleetExchange
        do {
            answer = try counters.exchange(counts, nowMicros: now * 1000)
        } catch {
            failures.add(1, ordering: .relaxed)
            for (limiter, published) in taken { limiter.requeue(published) }
            if lastSuccess.load(ordering: .relaxed) < now - failOpenAfterMilliseconds {
                for (_, limiter) in limiters.numbered {
                    limiter.nodes.store(1, ordering: .relaxed)
                    limiter.unsynced.store(true, ordering: .relaxed)
                }
            }
            throw error
        }
        lastSuccess.store(now, ordering: .relaxed)
        syncs.add(1, ordering: .relaxed)
        for (_, limiter) in limiters.numbered { limiter.unsynced.store(false, ordering: .relaxed) }
        let applied = clock()
        var offset = 0
        for (limiter, published) in taken {
            let others = answer.others[offset..<(offset + published.count)].map {
                FleetOthersView(count: $0.count, backlog: $0.backlogMicros)
            }
            offset += published.count
            limiter.nodes.store(answer.nodes, ordering: .relaxed)
            limiter.apply(published, others, nowMillis: applied, nodes: answer.nodes)
        }
    }

    /// Starts the thread (once).
    func start() {
        thread.withLock { running in
            guard running == nil else { return }
            running = OSThread(name: "rate-sync") { [self] in run() }
        }
    }

    /// Stops the thread and tells the fleet this node leaves; the buckets act as a lone
    /// node's from then on.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let running = thread.withLock { $0 }
        running?.join()
        if running != nil { counters.leave() }
        for (_, limiter) in limiters.numbered {
            limiter.nodes.store(1, ordering: .relaxed)
            limiter.unsynced.store(false, ordering: .relaxed)
        }
    }

    /// What the sync did so far, now.
    func statistics() -> FleetSyncStatistics {
        let last = max(lastSuccess.load(ordering: .relaxed), createdAt)
        return FleetSyncStatistics(
            syncs: syncs.load(ordering: .relaxed), failures: failures.load(ordering: .relaxed),
            millisecondsSinceSync: max(0, clock() - last),
            nodes: limiters.numbered.first?.limiter.nodes.load(ordering: .relaxed) ?? 1,
            unsyncedAdmissions: limiters.named.map { .init(bucket: $0.name, count: $0.limiter.unsyncedAdmissions) })
    }

    private func run() {
        while !stopped.load(ordering: .acquiring) {
            let started = Clock.monotonicNanoseconds()
            do {
                try syncOnce()
                failuresInARow.store(0, ordering: .relaxed)
            } catch {
                // Said once when it starts failing, then every 100th attempt (about 10 s).
                let n = failuresInARow.add(1, ordering: .relaxed).newValue
                if n == 1 || n % 100 == 0 { onError("fleet rate-limit sync failed: \(error.safeMessage)") }
            }
            let spent = Int64(Clock.monotonicNanoseconds() &- started) / 1_000_000
            let wait = max(intervalMilliseconds - spent, 1)
            usleep(UInt32(wait * 1000))
        }
    }
}
