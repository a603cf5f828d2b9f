import Core
import Model

/// Prunes a store in the background: every `intervalMilliseconds`, clicks and
/// open events older than `maxAgeMilliseconds` and expired handoffs go, through
/// the store's writer in small transactions (`RetentionPruning.prune`).
///
/// ```swift
/// let pruner = RetentionPruner(store: store, maxAgeMilliseconds: 90 * 86_400_000)
/// pruner.start()
/// ...
/// pruner.stop()   // before store.close()
/// ```
public final class RetentionPruner: Sendable {
    private let store: any RetentionPruning & Sendable
    public let maxAgeMilliseconds: Int64
    public let intervalMilliseconds: Int64
    private let clock: @Sendable () -> Int64
    private let onPass: @Sendable (Result<Int, StoreError>) -> Void
    private struct State {
        var thread: OSThread?
        var stopping = false
        var wakeNow = false
    }
    private let monitor = Monitor(State())

    /// - Parameters:
    ///   - onPass: called on the pruner's thread after each pass with the rows
    ///     deleted or the error (for logs and metrics).
    public init(
        store: any RetentionPruning & Sendable, maxAgeMilliseconds: Int64, intervalMilliseconds: Int64 = 60_000,
        clock: @escaping @Sendable () -> Int64 = { Int64(Clock.nowMilliseconds()) },
        onPass: @escaping @Sendable (Result<Int, StoreError>) -> Void = { _ in }
    ) {
        self.store = store
        self.maxAgeMilliseconds = maxAgeMilliseconds
        self.intervalMilliseconds = max(intervalMilliseconds, 1)
        self.clock = clock
        self.onPass = onPass
    }

    deinit { stop() }

    /// Starts the thread; the first pass runs at once. Calling it twice does nothing.
    public func start() {
        monitor.withLock { s in
            guard s.thread == nil, !s.stopping else { return }
            s.thread = OSThread(name: "store-prune") { [self] in run() }
        }
    }

    /// Runs a pass now instead of at the next interval.
    public func runSoon() {
        monitor.withLock { s in
            s.wakeNow = true
            monitor.signal()
        }
    }

    /// Stops after the current pass (if any) and waits for the thread.
    public func stop() {
        let running: OSThread? = monitor.withLock { s in
            s.stopping = true
            monitor.signal()
            return s.thread
        }
        running?.join()
    }

    private func run() {
        while true {
            let now = clock()
            let result: Result<Int, StoreError>
            do throws(StoreError) {
                result = .success(try store.prune(olderThan: now - maxAgeMilliseconds, now: now))
            } catch {
                result = .failure(error)
            }
            onPass(result)
            if case .failure(.closed) = result { return }
            let deadline = Clock.monotonicNanoseconds() &+ UInt64(intervalMilliseconds) * 1_000_000
            let stop: Bool = monitor.withCondition { held in
                while !held.state.stopping && !held.state.wakeNow {
                    if !held.wait(untilMonotonic: deadline) { break }
                }
                held.state.wakeNow = false
                return held.state.stopping
            }
            if stop { return }
        }
    }
}
