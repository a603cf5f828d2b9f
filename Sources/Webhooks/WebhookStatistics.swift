import Synchronization

/// This node's delivery counters and the outbox's depth, for `/metrics`.
public final class WebhookStatistics: Sendable {
    public struct Snapshot: Sendable, Equatable {
        /// Attempts by result: delivered (2xx), retry (failed, tried again later), failed
        /// (given up), lost (the lease had gone: another node decides).
        public var delivered: UInt64
        public var retried: UInt64
        public var failed: UInt64
        public var lost: UInt64
        /// The outbox's pending deliveries (every node's), and the age of the oldest in
        /// milliseconds, as last read (every few seconds).
        public var pending: Int
        public var oldestPendingAgeMilliseconds: Int64
    }

    private let delivered = Atomic<UInt64>(0)
    private let retried = Atomic<UInt64>(0)
    private let failed = Atomic<UInt64>(0)
    private let lost = Atomic<UInt64>(0)
    private let pending = Atomic<Int>(0)
    private let oldestAge = Atomic<Int64>(0)

    public init() {}

    func count(delivered d: Bool = false, retried r: Bool = false, failed f: Bool = false, lost l: Bool = false) {
        if d { delivered.add(1, ordering: .relaxed) }
        if r { retried.add(1, ordering: .relaxed) }
        if f { failed.add(1, ordering: .relaxed) }
        if l { lost.add(1, ordering: .relaxed) }
    }

    func depth(pending p: Int, oldestAgeMilliseconds: Int64) {
        pending.store(p, ordering: .relaxed)
        oldestAge.store(oldestAgeMilliseconds, ordering: .relaxed)
    }

    public var snapshot: Snapshot {
        Snapshot(
            delivered: delivered.load(ordering: .relaxed), retried: retried.load(ordering: .relaxed),
            failed: failed.load(ordering: .relaxed), lost: lost.load(ordering: .relaxed),
            pending: pending.load(ordering: .relaxed), oldestPendingAgeMilliseconds: oldestAge.load(ordering: .relaxed))
    }
}
