import Core
import Model

/// Blocks one thread until a write's completion hands over its result (`writeAndWait`).
final class ResultWaiter<T: Sendable, Failure: Error>: @unchecked Sendable {
    private let monitor = Monitor()
    private var result: Result<T, Failure>?

    func deliver(_ value: Result<T, Failure>) {
        monitor.withLock {
            result = value
            monitor.signal()
        }
    }

    func wait() -> Result<T, Failure> {
        monitor.withLock {
            while result == nil { monitor.wait() }
            return result!
        }
    }
}
