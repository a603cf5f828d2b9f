/// When a failed delivery is tried again, and when it is given up (decision 0028).
public struct WebhookRetrySchedule: Sendable, Equatable {
    /// Seconds after each failed attempt before the next: Svix's first steps, then half
    /// days, 11 attempts over about 63.5 hours.
    public static let standardDelays: [Int64] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, 43_200, 43_200, 43_200]
    /// No attempt later than this after the schedule began.
    public static let window: Int64 = 72 * 3_600_000
    /// A `Retry-After` longer than this is read as this.
    public static let longestRetryAfter: Int64 = 24 * 3_600_000
    /// An endpoint failing this long in a row is disabled.
    public static let disableAfter: Int64 = 5 * 24 * 3_600_000
    /// The most delays `BIQLI_EDGE_WEBHOOK_RETRY_DELAYS` may list.
    public static let maxDelays = 20

    /// Seconds after each failed attempt.
    public var delays: [Int64]

    public init(delays: [Int64] = WebhookRetrySchedule.standardDelays) { self.delays = delays }

    /// `5,300,1800`: positive whole seconds, at most `maxDelays`, each at most a day.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= Self.maxDelays else { return nil }
        var delays: [Int64] = []
        for p in parts {
            guard let s = Int64(p.trimmingCharacters()), s >= 1, s <= 86_400 else { return nil }
            delays.append(s)
        }
        self.delays = delays
    }

    /// After the `attempt`th attempt of the schedule (1-based) failed at `now`: the time of
    /// the next attempt, nil when the delivery is given up. `random` is uniform in 0..<1
    /// (the jitter, +-20 %); `retryAfter` the receiver's wish in milliseconds, if any.
    public func next(afterAttempt attempt: Int, startedAt: Int64, now: Int64, retryAfter: Int64?, random: Double)
        -> Int64?
    {
        guard attempt >= 1, attempt <= delays.count else { return nil }
        let base = Double(delays[attempt - 1] * 1_000)
        var delay = Int64(base * (0.8 + 0.4 * min(max(random, 0), 1)))
        if let retryAfter { delay = max(delay, min(retryAfter, Self.longestRetryAfter)) }
        let at = now + max(delay, 0)
        return at - startedAt > Self.window ? nil : at
    }

    /// Whether an endpoint failing since `failingSince` is to be disabled by a failure at `now`.
    public static func disables(failingSince: Int64?, now: Int64) -> Bool {
        guard let failingSince else { return false }
        return now - failingSince >= disableAfter
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
