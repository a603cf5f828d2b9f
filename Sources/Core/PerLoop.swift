/// One value per event loop, each touched only by its own loop's thread, so that
/// no lock is needed. Index with the request's loop index.
///
/// Each value lives in an object of its own, reached through an array that is
/// never written after `init`: two loops then never access the same storage
/// (mutating elements of one shared array in place from several threads would be
/// overlapping accesses to that array, a data race in Swift's terms).
public final class PerLoop<Value>: @unchecked Sendable {
    @usableFromInline
    final class Slot {
        @usableFromInline var value: Value
        init(_ value: Value) { self.value = value }
    }

    @usableFromInline let slots: [Slot]

    public init(count: Int, _ make: () -> Value) {
        slots = (0..<max(1, count)).map { _ in Slot(make()) }
    }

    public var count: Int { slots.count }

    /// Mutates loop `index`'s value. Call only on that loop's thread.
    @inlinable
    public func with<R, E: Error>(_ index: Int, _ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try body(&slots[index].value)
    }
}
