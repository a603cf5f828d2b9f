/// Per-minute limits of the resolver. A limit of 0 switches that bucket off.
public struct RateLimits: Sendable, Equatable {
    /// Requests per Mobile App (keyed by the app of the bearer key). Default 3,000.
    public var perApp: Int
    /// Requests per source address. Default 120.
    public var perSourceAddress: Int
    /// Requests per app instance (per app). Default 30.
    public var perAppInstance: Int
    /// Requests per handoff token (by its hash). Default 20.
    public var perHandoffToken: Int
    /// Failed attempts per source address: invalid keys (401) and unavailable
    /// handoffs (404). Once spent, further such attempts from the address get 429,
    /// and only they: a valid key or token from the same address (other devices
    /// behind one NAT) is answered as usual. Default 10.
    public var failuresPerSourceAddress: Int
    /// `POST /api/v1/track/click` per source address (decision 0027). Default 120.
    public var trackClickPerAddress: Int
    /// `POST /api/v1/track/click` per browser key: a site's landings. Default 6,000.
    public var trackClickPerKey: Int
    /// `POST /api/v1/track/lead` and `/track/sale` per secret key. Default 6,000.
    public var conversionsPerKey: Int
    /// Most keys each bucket remembers; past it, entries are dropped (oldest state
    /// first, failing open) so memory stays bounded. Default 100,000.
    public var maxTrackedKeysPerBucket: Int

    public init(
        perApp: Int = 3_000, perSourceAddress: Int = 120, perAppInstance: Int = 30, perHandoffToken: Int = 20,
        failuresPerSourceAddress: Int = 10, trackClickPerAddress: Int = 120, trackClickPerKey: Int = 6_000,
        conversionsPerKey: Int = 6_000, maxTrackedKeysPerBucket: Int = 100_000
    ) {
        self.perApp = perApp
        self.perSourceAddress = perSourceAddress
        self.perAppInstance = perAppInstance
        self.perHandoffToken = perHandoffToken
        self.failuresPerSourceAddress = failuresPerSourceAddress
        self.trackClickPerAddress = trackClickPerAddress
        self.trackClickPerKey = trackClickPerKey
        self.conversionsPerKey = conversionsPerKey
        self.maxTrackedKeysPerBucket = maxTrackedKeysPerBucket
    }

    /// Every bucket off (tests and benchmarks that are not about limits).
    public static let unlimited = RateLimits(
        perApp: 0, perSourceAddress: 0, perAppInstance: 0, perHandoffToken: 0, failuresPerSourceAddress: 0,
        trackClickPerAddress: 0, trackClickPerKey: 0, conversionsPerKey: 0)
}
