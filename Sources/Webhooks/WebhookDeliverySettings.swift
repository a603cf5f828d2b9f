import Model

/// How this node delivers webhooks (the `BIQLI_EDGE_WEBHOOK_*` settings, decision 0028).
public struct WebhookDeliverySettings: Sendable {
    /// Delivery threads (`BIQLI_EDGE_WEBHOOK_THREADS`).
    public var threads = 4
    /// Connect and whole exchange (`BIQLI_EDGE_WEBHOOK_TIMEOUT_SECONDS`).
    public var timeoutMilliseconds = 10_000
    /// `BIQLI_EDGE_WEBHOOK_RETRY_DELAYS`.
    public var schedule = WebhookRetrySchedule()
    /// `BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE`: destinations need not be public addresses.
    public var allowPrivate = false
    /// `BIQLI_EDGE_WEBHOOK_ALLOW_HTTP`: plain `http://` endpoints.
    public var allowHTTP = false
    /// `BIQLI_EDGE_WEBHOOK_CA_ROOTS`: PEM bundle of the CAs receivers' certificates must
    /// chain to; nil: the system's roots.
    public var caRootsFile: String?
    /// This node's name: leases are `<node>:<process id>`, attempts name the node.
    public var node = "edge"
    /// Rows one claim takes.
    public var claimBatch = 8
    /// Deliveries of one endpoint in flight on this node at most.
    public var perEndpoint = WebhookClaimPlan.perEndpoint
    /// The longest a thread sleeps without a signal (rows of other nodes, retries due).
    public var pollMilliseconds = 1_000
    /// Answer bytes read at most.
    public static let maxAnswerBytes = 1 << 20

    public init() {}

    /// A claim's lease: long enough for an attempt's whole timeout, several times over.
    public var leaseMilliseconds: Int64 { Int64(timeoutMilliseconds) * 6 }
}
