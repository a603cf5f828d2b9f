extension Resolver {
    public struct Configuration: Sendable {
        /// Public base URL of the API (`BIQLI_EDGE_PUBLIC_URL`): the receipts' `iss`.
        public var publicURL: String
        /// Per-minute limits. Default: the seed's (3,000 / 120 / 30 / 20, 10 failures).
        public var limits: RateLimits
        /// Runs of the write body when the store reports a uniqueness conflict
        /// (a race on a multi-writer backend). Default 2.
        public var maxWriteAttempts: Int
        /// How long a looked-up publishable key is trusted before it is read again (a
        /// revoked key stops working at most this long after). Default 1,000 ms.
        public var keyCacheMilliseconds: Int64
        /// Told about unexpected failures (a safe text: no keys, no tokens), for the log.
        public var onInternalError: (@Sendable (String) -> Void)?
        /// How often the rate limits are synced with the other nodes of a fleet
        /// (PostgreSQL). Default 100 ms: decision 0016 states the bound for it.
        public var fleetSyncMilliseconds: Int64 = 100

        public init(
            publicURL: String, limits: RateLimits = RateLimits(), maxWriteAttempts: Int = 2,
            keyCacheMilliseconds: Int64 = 1_000, onInternalError: (@Sendable (String) -> Void)? = nil
        ) {
            self.keyCacheMilliseconds = keyCacheMilliseconds
            self.publicURL = publicURL
            self.limits = limits
            self.maxWriteAttempts = maxWriteAttempts
            self.onInternalError = onInternalError
        }
    }
}
