import Core
import Model

/// Blocks one thread until a write's completion hands over its result (`writeAndWait`).
final class ResultWaiter<T: Sendable, Failure: Error>: Sendable {
    private let monitor = Monitor<Result<T, Failure>?>(nil)

    func deliver(_ value: Result<T, Failure>) {
        monitor.withLock { result in
            result = value
            monitor.signal()
        }
    }

    func wait() -> Result<T, Failure> {
        monitor.withCondition { held in
            while held.state == nil { held.wait() }
            return held.state!
        }
    }
}
