import Core

/// The delivery threads' time, as a value: the wall clock that dates attempts, leases and
/// retries, the monotonic one that measures an attempt and paces the writing of outcomes,
/// and the retries' jitter. `system` in service; the unit tests move a time of their own.
/// (Sleeping between polls stays on the real clock: the tests run passes, not threads.)
struct WebhookClock: Sendable {
    /// Unix milliseconds.
    var now: @Sendable () -> Int64
    /// Nanoseconds of a clock that never goes back.
    var monotonicNanoseconds: @Sendable () -> UInt64
    /// Uniform in 0..<1: where a retry falls within its +-20 % (`WebhookRetrySchedule.next`).
    var random: @Sendable () -> Double

    static let system = WebhookClock(
        now: { Int64(Clock.nowMilliseconds()) }, monotonicNanoseconds: { Clock.monotonicNanoseconds() },
        random: { Double.random(in: 0..<1) })
}
