#if canImport(Glibc)
import Glibc
#endif

/// A mutex guarding `State`, with one condition variable (pthread), for the store's write
/// queue and the few other places that must sleep until something happens (the console's
/// worker, the store's background threads).
///
/// As with `Synchronization.Mutex`, the state is reachable only while the lock is held, so
/// the compiler checks what the comments used to say: `withLock` hands it over `inout` for
/// work that does not wait; `withCondition` hands a `Held` (the state, `wait`, `signal`)
/// to code that must sleep until the state changes. `Mutex` has no condition variable, and
/// `DispatchSemaphore` cannot wait for "queue non-empty or deadline", hence this type. The
/// condition uses `CLOCK_MONOTONIC` so a wall-clock jump never stretches a wait.
///
/// ```swift
/// let queue = Monitor<[Job]>([])
/// queue.withLock { jobs in jobs.append(job); queue.signal() }
/// let next = queue.withCondition { held in
///     while held.state.isEmpty { held.wait() }
///     return held.state.removeFirst()
/// }
/// ```
// @unchecked: the pthread mutex and condition live at stable addresses (C); `State` is
// Sendable and reachable only under the mutex (`withLock`, `withCondition`).
public final class Monitor<State: Sendable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Behind a pointer: read and written through it only while `mutex` is held, and reread
    /// after every wait (a pointer's target may change across an opaque call).
    @usableFromInline let storage: UnsafeMutablePointer<State>

    public init(_ state: State) {
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
        storage = .allocate(capacity: 1)
        storage.initialize(to: state)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the state, under the lock. For work that does not wait (a body
    /// holds the state `inout` and so may not sleep on the condition: `withCondition`).
    @inlinable
    public func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }

    /// Runs `body` under the lock with a `Held`, through which it reads and writes the
    /// state and may wait on the condition (which releases the lock meanwhile). Not
    /// `@inlinable`: Swift 6.3's optimiser crashes inlining it (a borrowed non-copyable
    /// argument); it runs once per wait, never per request.
    public func withCondition<R, E: Error>(_ body: (borrowing Held) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(Held(monitor: self))
    }

    /// Wakes one waiter. Allowed with or without the lock; waiters recheck the state.
    @inlinable public func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter.
    @inlinable public func broadcast() { pthread_cond_broadcast(condition) }

    /// The lock held inside `withCondition`: the state, and waits that release the lock
    /// while they sleep. It cannot leave the closure (it is neither copyable nor escaping).
    public struct Held: ~Copyable {
        @usableFromInline let monitor: Monitor

        @usableFromInline init(monitor: Monitor) { self.monitor = monitor }

        /// The guarded state; every access goes through the pointer, so a value read after
        /// a `wait` is the one another thread may have written meanwhile.
        @inlinable
        public var state: State {
            unsafeAddress { UnsafePointer(monitor.storage) }
            nonmutating unsafeMutableAddress { monitor.storage }
        }

        /// Waits for a signal (the lock is released meanwhile); the caller rechecks its predicate.
        @inlinable public func wait() { pthread_cond_wait(monitor.condition, monitor.mutex) }

        /// Waits for a signal or until the monotonic `deadline` (nanoseconds); false on timeout.
        @inlinable @discardableResult
        public func wait(untilMonotonic deadline: UInt64) -> Bool {
            var ts = timespec()
            ts.tv_sec = Int(deadline / 1_000_000_000)
            ts.tv_nsec = Int(deadline % 1_000_000_000)
            return pthread_cond_timedwait(monitor.condition, monitor.mutex, &ts) == 0
        }

        @inlinable public func signal() { monitor.signal() }
        @inlinable public func broadcast() { monitor.broadcast() }
    }
}
