import Synchronization

/// One log message that can repeat per request (a failed write while the disk is full
/// comes with every visit): written at most once per `interval`, each line saying how
/// many were left out since the previous one (`suppressed`), so that a fault does not
/// flood the log with thousands of lines a second.
public final class LogThrottle: Sendable {
    public typealias Emit = @Sendable (_ message: String, _ fields: [(String, JSONValue)]) -> Void

    private let message: String
    private let intervalNanoseconds: UInt64
    private let emit: Emit
    private let now: @Sendable () -> UInt64
    private let state = Mutex<(last: UInt64?, suppressed: Int)>((nil, 0))

    init(
        _ message: String, everyMilliseconds interval: UInt64 = 10_000, emit: @escaping Emit,
        now: @escaping @Sendable () -> UInt64 = Clock.monotonicNanoseconds
    ) {
        self.message = message
        self.intervalNanoseconds = interval * 1_000_000
        self.emit = emit
        self.now = now
    }

    /// Error lines through `log`, throttled. `now`: the monotonic clock (a test's).
    public convenience init(
        _ message: String, log: Logger, everyMilliseconds interval: UInt64 = 10_000,
        now: @escaping @Sendable () -> UInt64 = Clock.monotonicNanoseconds
    ) {
        self.init(message, everyMilliseconds: interval, emit: { log.error($0, $1) }, now: now)
    }

    /// Writes the line unless one was written less than the interval ago; `fields` are
    /// built only when it is written.
    public func write(_ fields: () -> [(String, JSONValue)] = { [] }) {
        let t = now()
        let suppressed: Int? = state.withLock { s in
            if let last = s.last, t &- last < intervalNanoseconds {
                s.suppressed += 1
                return nil
            }
            let left = s.suppressed
            s = (t, 0)
            return left
        }
        guard let suppressed else { return }
        var all = fields()
        if suppressed > 0 { all.append(("suppressed", .int(Int64(suppressed)))) }
        emit(message, all)
    }
}
