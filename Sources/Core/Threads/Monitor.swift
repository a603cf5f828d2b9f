#if canImport(Glibc)
import Glibc
#endif

/// A mutex with one condition variable (pthread), for the store's write queue and the
/// few other places that must sleep until something happens (the console's worker).
///
/// `Synchronization.Mutex` has no condition variable, and `DispatchSemaphore`
/// cannot wait for "queue non-empty or deadline", hence this small wrapper. The
/// condition uses `CLOCK_MONOTONIC` so a wall-clock jump never stretches a wait.
public final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    @inline(__always) public func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) public func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always) public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; the caller holds the lock and re-checks its predicate.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or until the monotonic `deadline` (nanoseconds); false on timeout.
    @discardableResult
    public func wait(untilMonotonic deadline: UInt64) -> Bool {
        var ts = timespec()
        ts.tv_sec = Int(deadline / 1_000_000_000)
        ts.tv_nsec = Int(deadline % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &ts) == 0
    }

    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}
