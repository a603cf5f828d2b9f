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
/// Every 429 but the handoff's is answered synchronously on the event loop. In a fleet
/// (PostgreSQL), all of them hold for the fleet: `FleetSync` shares them (decision 0016).
///
/// Beside the resolver's five, the same machinery limits the other track calls
/// (decision 0027): `track/click` per address and per browser key, `track/lead` and
/// `track/sale` per secret key (`Resolver.admit`).
final class ResolverLimiters: Sendable {
    let app: RateLimiter
    let address: RateLimiter
    let instance: RateLimiter
    let token: RateLimiter
    let failures: RateLimiter
    let clickAddress: RateLimiter
    let clickKey: RateLimiter
    let conversionKey: RateLimiter
    /// The hash of bucket keys (the fleet's seed when shared).
    let keys: RateLimitKeys

    /// `fleet`: whether the buckets are shared with other nodes (keys are then listed
    /// for `FleetSync`, which runs every `syncIntervalMicros`).
    init(
        _ limits: RateLimits, keys: RateLimitKeys = .random(), fleet: Bool = false, syncIntervalMicros: Int64 = 100_000
    ) {
        let n = limits.maxTrackedKeysPerBucket
        func make(_ limit: Int) -> RateLimiter {
            RateLimiter(limit: limit, maxKeys: n, keys: keys, fleet: fleet, syncIntervalMicros: syncIntervalMicros)
        }
        self.keys = keys
        app = make(limits.perApp)
        address = make(limits.perSourceAddress)
        instance = make(limits.perAppInstance)
        token = make(limits.perHandoffToken)
        failures = make(limits.failuresPerSourceAddress)
        clickAddress = make(limits.trackClickPerAddress)
        clickKey = make(limits.trackClickPerKey)
        conversionKey = make(limits.conversionsPerKey)
    }

    /// Every enabled bucket with its number in the fleet's table (stable: stored).
    var numbered: [(bucket: Int, limiter: RateLimiter)] {
        [
            (1, app), (2, address), (3, instance), (4, token), (5, failures), (6, clickAddress), (7, clickKey),
            (8, conversionKey),
        ].filter { $0.1.isEnabled }
    }

    /// Every enabled bucket with its name on `/metrics` (a label value: stable).
    var named: [(name: String, limiter: RateLimiter)] {
        [
            ("app", app), ("address", address), ("instance", instance), ("token", token), ("failures", failures),
            ("click_address", clickAddress), ("click_key", clickKey), ("conversion_key", conversionKey),
        ].filter { $0.1.isEnabled }
    }

    /// Whole seconds for `Retry-After`, at least 1.
    static func retryAfterSeconds(_ micros: Int64) -> Int {
        Int(max(1, (micros + 999_999) / 1_000_000))
    }
}
