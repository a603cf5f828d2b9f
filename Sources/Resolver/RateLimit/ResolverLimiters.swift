/// The resolver's buckets, and where each is consulted:
///
/// 1. source address: first of all, before any parsing (cheapest defence);
///    the failure bucket of the address is checked (not taken) at the same point;
/// 2. app: once the bearer key names the app, before the body is parsed;
/// 3. app instance and handoff token: after the body is validated, before the
///    store's writer is involved.
///
/// Every 429 is answered synchronously on the event loop.
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
