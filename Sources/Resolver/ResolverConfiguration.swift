extension Resolver {
    public struct Configuration: Sendable {
        /// Public base URL of the API (`BIQLI_EDGE_PUBLIC_URL`): the receipts' `iss`.
        public var publicURL: String
        /// Per-minute limits. Default: the seed's (3,000 / 120 / 30 / 20, 10 failures).
        public var limits: RateLimits
        /// Runs of the write body when the store reports a uniqueness conflict
        /// (a race on a multi-writer backend). Default 2.
        public var maxWriteAttempts: Int
        /// Told about unexpected failures (a safe text: no keys, no tokens), for the log.
        public var onInternalError: (@Sendable (String) -> Void)?

        public init(
            publicURL: String, limits: RateLimits = RateLimits(), maxWriteAttempts: Int = 2,
            onInternalError: (@Sendable (String) -> Void)? = nil
        ) {
            self.publicURL = publicURL
            self.limits = limits
            self.maxWriteAttempts = maxWriteAttempts
            self.onInternalError = onInternalError
        }
    }
}
