/// The resolver's buckets, and where each is consulted:
///
/// 1. source address: first of all, before any parsing (cheapest defence);
/// 2. app: once the bearer key names the app, before the body is parsed;
/// 3. app instance and handoff token: after the body is validated, before the
///    store's writer is involved;
/// 4. failures of the source address: taken by a request that turned out to be an
///    invalid attempt (a key that is not usable, on the loop; a handoff the writer
///    found unavailable, when its answer comes back), which gets 429 instead of its
///    401/404 once the bucket is spent. A request that is not an invalid attempt
///    never meets this bucket, so one device with a stale key does not lock out
///    every app behind the same address. A malformed token is checked against it
///    on the loop, so a spent address does not reach the writer with one.
///
/// Every 429 but the handoff's is answered synchronously on the event loop.
final class ResolverLimiters: Sendable {
    let app: RateLimiter
    let address: RateLimiter
    let instance: RateLimiter
    let token: RateLimiter
    let failures: RateLimiter

    init(_ limits: RateLimits) {
        let n = limits.maxTrackedKeysPerBucket
        app = RateLimiter(limit: limits.perApp, maxKeys: n)
        address = RateLimiter(limit: limits.perSourceAddress, maxKeys: n)
        instance = RateLimiter(limit: limits.perAppInstance, maxKeys: n)
        token = RateLimiter(limit: limits.perHandoffToken, maxKeys: n)
        failures = RateLimiter(limit: limits.failuresPerSourceAddress, maxKeys: n)
    }

    /// Whole seconds for `Retry-After`, at least 1.
    static func retryAfterSeconds(_ micros: Int64) -> Int {
        Int(max(1, (micros + 999_999) / 1_000_000))
    }
}
