/// One value per event loop, each touched only by its own loop's thread, so that
/// no lock is needed. Index with the request's loop index.
public final class PerLoop<Value>: @unchecked Sendable {
    @usableFromInline var values: [Value]

    public init(count: Int, _ make: () -> Value) {
        values = (0..<max(1, count)).map { _ in make() }
    }

    /// Mutates loop `index`'s value. Call only on that loop's thread.
    @inlinable
    public func with<R>(_ index: Int, _ body: (inout Value) -> R) -> R {
        body(&values[index])
    }
}
