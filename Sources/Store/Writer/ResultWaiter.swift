import Model

/// Blocks one thread until a write's completion hands over its result (`writeAndWait`).
final class ResultWaiter<T: Sendable>: @unchecked Sendable {
    private let monitor = Monitor()
    private var result: Result<T, StoreError>?

    func deliver(_ value: Result<T, StoreError>) {
        monitor.withLock {
            result = value
            monitor.signal()
        }
    }

    func wait() -> Result<T, StoreError> {
        monitor.withLock {
            while result == nil { monitor.wait() }
            return result!
        }
    }
}
