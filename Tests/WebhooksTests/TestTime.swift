import Synchronization

@testable import Webhooks

/// The tests' time: moved by hand; the jitter in the middle (a delay exactly as scheduled).
final class TestTime: Sendable {
    private let value: Mutex<Int64>

    init(start: Int64) { value = Mutex(start) }

    var now: Int64 {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    var webhookClock: WebhookClock {
        WebhookClock(
            now: { self.now }, monotonicNanoseconds: { UInt64(self.now) * 1_000_000 }, random: { 0.5 })
    }
}
