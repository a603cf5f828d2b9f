import Core
import Store

/// What the operations may learn about the running edge (a value so that unit tests
/// can build one without a server).
public struct ManagementEnvironment: Sendable {
    /// True when a valid certificate covers the host (`httpsActive`).
    var httpsActive: @Sendable (String) -> Bool
    /// The domain's certificate: its source and state, ACME's included.
    var certificate: @Sendable (String) -> DomainCertificate
    var now: @Sendable () -> Int64
    /// `BIQLI_EDGE_PUBLIC_URL`, the OpenAPI document's server.
    var publicURL: String
    /// Days clicks and open events are kept: the analytics window's upper bound.
    var retentionDays: Int
    /// The operational log, for a failure the client only sees as `internal_server_error`
    /// (a request's lines carry its request id: `Logger.with(requestId:)`).
    var log: Logger
    /// The rate limit of `track/lead` and `track/sale` per secret key (by its id): nil to
    /// go on, else the seconds to wait (429 `rate_limit_exceeded`, decision 0027). Nil: no limit.
    public var limitConversion: (@Sendable (String) -> Int?)?
    /// `BIQLI_EDGE_WEBHOOK_ALLOW_HTTP`: webhook endpoints may be plain `http://` URLs.
    public var webhookAllowHTTP = false
    /// Seals the webhooks' signing secrets before they are stored (decision 0031); nil: they
    /// are stored as made (unit tests).
    public var webhookSecrets: WebhookSecretKeeper?

    public init(
        httpsActive: @escaping @Sendable (String) -> Bool, now: @escaping @Sendable () -> Int64, publicURL: String,
        retentionDays: Int, log: Logger,
        certificate: @escaping @Sendable (String) -> DomainCertificate = { _ in DomainCertificate() }
    ) {
        self.httpsActive = httpsActive
        self.certificate = certificate
        self.now = now
        self.publicURL = publicURL
        self.retentionDays = retentionDays
        self.log = log
    }
}
