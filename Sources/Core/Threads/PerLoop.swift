import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One value per event loop, each touched only by its own loop's thread, so that
/// no lock is needed. Index with the request's loop index.
///
/// Each value lives in an object of its own, reached through an array that is
/// never written after `init`: two loops then never access the same storage
/// (mutating elements of one shared array in place from several threads would be
/// overlapping accesses to that array, a data race in Swift's terms).
///
/// Debug builds check the rule on every `with` (`isOwnedByCurrentThread`), as NIO's
/// `NIOLoopBound` checks its loop; release builds only trust it and pay nothing.
// @unchecked: the loop design; each value is touched only by its own loop's thread (checked in debug builds).
public final class PerLoop<Value>: @unchecked Sendable {
    @usableFromInline
    final class Slot {
        @usableFromInline var value: Value
        /// The thread that touched the value first (its `pthread_t`), 0 before that.
        let owner = Atomic<UInt>(0)
        init(_ value: Value) { self.value = value }
    }

    @usableFromInline let slots: [Slot]

    public init(count: Int, _ make: () -> Value) {
        slots = (0..<max(1, count)).map { _ in Slot(make()) }
    }

    /// One value per loop, loop `i`'s being `values[i]` (at least one), which no one else keeps.
    public init(values: sending [Value]) {
        precondition(!values.isEmpty, "PerLoop needs a value for at least one loop")
        slots = values.map { Slot($0) }
    }

    public var count: Int { slots.count }

    /// Loop `index`'s value itself, for an object that the caller then uses on its own
    /// thread (a store's reader). Debug builds check that the caller is not another loop's
    /// thread; a thread that runs no loop (start-up, a command, a background thread with
    /// an index of its own) may take it, and must then keep to that one thread.
    @inlinable
    public func value(_ index: Int) -> Value {
        #if DEBUG
        precondition(
            mayTakeOnCurrentThread(index),
            "PerLoop: loop \(index)'s value taken on loop \(LoopThread.current.map(String.init) ?? "none")'s thread"
        )
        #endif
        return slots[index].value
    }

    /// Whether the calling thread may take loop `index`'s value (`value(_:)`): any thread
    /// but another loop's.
    public func mayTakeOnCurrentThread(_ index: Int) -> Bool {
        LoopThread.current.map { $0 == index } ?? true
    }

    /// Mutates loop `index`'s value. Call only on that loop's thread.
    @inlinable
    public func with<R, E: Error>(_ index: Int, _ body: (inout Value) throws(E) -> R) throws(E) -> R {
        #if DEBUG
        precondition(
            isOwnedByCurrentThread(index),
            "PerLoop: loop \(index)'s value touched off its thread (on loop \(LoopThread.current.map(String.init) ?? "none")'s)"
        )
        #endif
        return try body(&slots[index].value)
    }

    /// Whether the calling thread may touch loop `index`'s value: never from another
    /// loop's thread (`LoopThread`), and only from the thread that touched it first,
    /// which this call makes the owner when there is none yet. (A loop's thread is the
    /// first in the server; a test without loops owns what it touches first.)
    public func isOwnedByCurrentThread(_ index: Int) -> Bool {
        if let loop = LoopThread.current, loop != index { return false }
        let me = UInt(pthread_self())
        let (claimed, owner) = slots[index].owner.compareExchange(expected: 0, desired: me, ordering: .relaxed)
        return claimed || owner == me
    }
}
