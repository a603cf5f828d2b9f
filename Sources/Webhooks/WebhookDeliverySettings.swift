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
    /// Rows one claim takes; a thread sends them one after the other.
    public var claimBatch = 16
    /// After a wake-up, how long a thread lets rows gather before it claims them.
    public var gatherMilliseconds = 10
    /// Outcomes written together, at most; and at most this long after the first of them.
    public var recordBatch = 16
    public var recordDelayMilliseconds = 250
    /// The longest a thread sleeps without a signal (rows of other nodes, retries due).
    public var pollMilliseconds = 1_000
    /// Answer bytes read at most.
    public static let maxAnswerBytes = 1 << 20

    public init() {}

    /// A claim's lease: long enough for every attempt of a claimed batch to time out, and
    /// their outcomes to be written.
    public var leaseMilliseconds: Int64 { Int64(timeoutMilliseconds) * Int64(claimBatch + 2) }

    /// Threads of this node working on one endpoint at most.
    public var threadsPerEndpoint: Int { WebhookClaimPlan.threadsPerEndpoint(threads: threads) }
}
