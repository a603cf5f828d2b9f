import Store

/// When to order, renew and retry (pure: the clock and the randomness come in).
///
/// - A certificate is renewed at two thirds of its lifetime, a little earlier by a random
///   jitter (up to a thirtieth of the lifetime: three days of a 90-day certificate), so
///   that a fleet's certificates issued together do not all renew at one instant; or at
///   a random time in the window the CA's renewal information suggests (RFC 9773).
/// - A failed order is retried after a wait that doubles with each failure in a row
///   (`backoffBase`, capped at `backoffCap`, with ±10 % jitter), at least as long as the
///   CA's `Retry-After`, and at least `rateLimitedMinimum` after a `rateLimited` problem.
///   Let's Encrypt allows 5 failed validations per hostname per hour: the default wait
///   of 5 minutes, then 10, 20, 40 stays within it.
public struct RenewalPolicy: Sendable, Equatable {
    public var backoffBase: Int64 = 5 * 60_000
    public var backoffCap: Int64 = 6 * 3_600_000
    public var rateLimitedMinimum: Int64 = 3_600_000

    public init(backoffBase: Int64 = 5 * 60_000, backoffCap: Int64 = 6 * 3_600_000) {
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
    }

    /// Two thirds into `notBefore..<notAfter`, less a jitter of up to a thirtieth of it.
    public func renewalTime(notBefore: Int64, notAfter: Int64, random: inout some RandomNumberGenerator) -> Int64 {
        let lifetime = max(notAfter - notBefore, 1)
        let jitter = Int64.random(in: 0...max(lifetime / 30, 0), using: &random)
        return notBefore + lifetime * 2 / 3 - jitter
    }

    /// A uniformly random time in the CA's window (RFC 9773, section 4.2); `now` when the
    /// window has passed.
    public func renewalTime(in window: RenewalWindow, now: Int64, random: inout some RandomNumberGenerator) -> Int64 {
        if window.end <= now { return now }
        let start = max(window.start, now)
        return Int64.random(in: start..<window.end, using: &random)
    }

    /// The wait before retrying, after the `failures`-th failure in a row (1 for the first).
    public func backoff(failures: Int, random: inout some RandomNumberGenerator) -> Int64 {
        var plain = min(backoffBase, backoffCap)
        for _ in 0..<min(max(failures - 1, 0), 62) where plain < backoffCap {
            plain = plain > backoffCap / 2 ? backoffCap : plain * 2
        }
        let spread = plain / 10
        return max(plain + Int64.random(in: -spread...spread, using: &random), 1)
    }

    /// When the next order may start after a failure: the backoff, or longer when the CA
    /// asked (`Retry-After`) or limited the rate.
    public func nextAttempt(
        after problem: ACMEProblem, failures: Int, now: Int64, random: inout some RandomNumberGenerator
    ) -> Int64 {
        var wait = backoff(failures: failures, random: &random)
        if let asked = problem.retryAfterMilliseconds { wait = max(wait, asked) }
        if problem.isRateLimited { wait = max(wait, problem.retryAfterMilliseconds ?? rateLimitedMinimum) }
        return now + wait
    }

    /// When an order for the hostname of `record` is due: now without a certificate (or
    /// with an expired one), else at its renewal time; never before `nextAttemptAt`.
    public func due(_ record: StoredCertificate?, now: Int64, random: inout some RandomNumberGenerator) -> Int64 {
        guard let record else { return now }
        var at = now
        if record.chainPEM != nil, let notAfter = record.notAfter, notAfter > now {
            at =
                record.renewalAt
                ?? renewalTime(notBefore: record.notBefore ?? notAfter, notAfter: notAfter, random: &random)
        }
        if let next = record.nextAttemptAt { at = max(at, next) }
        return at
    }
}
