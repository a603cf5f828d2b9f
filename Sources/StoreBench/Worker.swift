import Core
import Model
import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One submitting thread with a fixed number of writes in flight: it waits for a
/// free slot, builds a visit's rows and hands them to `write`; the completion
/// (on the writer thread) records the commit wait and frees the slot.
final class Worker: Sendable {
    private let index: Int
    private let store: SQLiteStore
    private let recorder: LatencyRecorder
    private let stop: StopFlag
    private let slots: Slots
    private let thread = AtomicLazyReference<OSThread>()

    init(index: Int, slots: Int, store: SQLiteStore, recorder: LatencyRecorder, stop: StopFlag) {
        self.index = index
        self.store = store
        self.recorder = recorder
        self.stop = stop
        self.slots = Slots(slots)
    }

    func start() {
        _ = thread.storeIfNil(OSThread(name: "bench-submit-\(index)") { [self] in run() })
    }

    func join() { thread.load()?.join() }

    private func run() {
        var random = FastRandom(state: UInt64(index + 1) &* 0x1234_5678_9ABC_DEF1 ^ Clock.monotonicNanoseconds())
        let recorder = self.recorder
        let slots = self.slots
        while !stop.isSet {
            slots.acquire()
            let (click, handoff) = VisitRows.make(&random, now: Int64(Clock.nowMilliseconds()))
            let submitted = Clock.monotonicNanoseconds()
            store.write({ tx in
                try tx.insertClick(click)
                try tx.insertHandoff(handoff)
            }) { result in
                if case .success = result { recorder.record(Clock.monotonicNanoseconds() &- submitted) }
                slots.release()
            }
        }
        slots.drain()
    }
}

/// A counting semaphore (writes in flight) that can wait for all slots back.
///
/// `release` runs in store completions on the writer thread, so it must stay
/// cheap: an atomic increment, and the mutex and a wake-up only while the
/// submitter sleeps for lack of slots. A submitter out of slots sleeps until a
/// quarter of them are free, so a batch's completions wake it about once, as
/// they wake an event loop (its mailbox's eventfd is written once per batch of
/// posts, not once per completion); waking it for every completion measured
/// about a microsecond of writer CPU per write that the edge does not pay.
final class Slots: Sendable {
    /// Only for sleeping and waking: the count itself is `free`.
    private let monitor = Monitor(())
    private let free: Atomic<Int>
    private let sleeping = Atomic<Bool>(false)
    private let total: Int
    /// Free slots that wake a sleeping submitter.
    private let wakeAt: Int

    init(_ count: Int) {
        free = Atomic(count)
        total = count
        wakeAt = max(1, count / 4)
    }

    func acquire() {
        while true {
            let n = free.load(ordering: .acquiring)
            if n > 0 {
                if free.compareExchange(expected: n, desired: n - 1, ordering: .acquiringAndReleasing).exchanged {
                    return
                }
                continue
            }
            sleep { free.load(ordering: .sequentiallyConsistent) >= wakeAt }
        }
    }

    func release() {
        // Sequentially consistent on both sides (Dekker): either this load sees
        // the sleeper's flag, or the sleeper's re-check sees this increment.
        // Only the first release that frees enough slots wakes the sleeper.
        let now = free.add(1, ordering: .sequentiallyConsistent).newValue
        if now >= wakeAt && sleeping.load(ordering: .sequentiallyConsistent)
            && sleeping.exchange(false, ordering: .sequentiallyConsistent)
        {
            monitor.withLock { _ in monitor.signal() }
        }
    }

    func drain() {
        while free.load(ordering: .acquiring) < total {
            sleep { free.load(ordering: .sequentiallyConsistent) >= total }
        }
    }

    /// Sleeps until `ready` (checked under the mutex after announcing the sleep;
    /// announced again after every wake-up, since a release clears it).
    private func sleep(until ready: () -> Bool) {
        monitor.withCondition { held in
            while true {
                sleeping.store(true, ordering: .sequentiallyConsistent)
                if ready() { break }
                held.wait()
            }
            sleeping.store(false, ordering: .releasing)
        }
    }
}

/// Commit waits, appended from the store's writer thread (completions run there). The lock
/// is never contended while the bench runs: it costs the writer two atomic operations per
/// write (about 0.2 % of its time per write).
final class LatencyRecorder: Sendable {
    private let samples: Mutex<[UInt64]>

    init(capacity: Int) {
        var samples: [UInt64] = []
        samples.reserveCapacity(capacity)
        self.samples = Mutex(samples)
    }

    func record(_ nanoseconds: UInt64) { samples.withLock { $0.append(nanoseconds) } }

    /// Call after the store is closed (no completion can run any more).
    func sortedMilliseconds() -> [Double] { samples.withLock { $0.sorted() }.map { Double($0) / 1e6 } }
}

final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
