/// A certificate the edge ordered through ACME for one hostname, and the state of its
/// orders: one row per hostname, shared by every node of a fleet (decision 0017).
public struct StoredCertificate: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// No certificate yet; an order is due or under way.
        case pending
        /// The last order succeeded: `chainPEM` is current.
        case valid
        /// The last order failed (`lastError`); `chainPEM`, if any, is the previous one.
        case failed
    }

    public var hostname: String
    public var status: Status
    /// The certificate chain (PEM), leaf first; nil until one was issued.
    public var chainPEM: String?
    /// The private key of the leaf (PEM). A secret: never in a log or an answer.
    public var keyPEM: String?
    /// Unix milliseconds of the leaf's validity.
    public var notBefore: Int64?
    public var notAfter: Int64?
    /// The issuer of the leaf (RFC 2253 text).
    public var issuer: String?
    /// When to order the next one (2/3 of the lifetime with jitter, or the CA's renewal
    /// information), Unix milliseconds.
    public var renewalAt: Int64?
    /// When renewal information (RFC 9773) is next fetched.
    public var renewalInfoCheckAt: Int64?
    /// The CA's problem document of the last failed order (`type`, `detail`), or a local one.
    public var lastErrorType: String?
    public var lastErrorDetail: String?
    /// Failed orders in a row (0 after a success): the backoff grows with it.
    public var failures: Int
    /// No order before this (backoff, `Retry-After`), Unix milliseconds.
    public var nextAttemptAt: Int64?
    /// The node ordering now, and until when its claim holds (`claimCertificateOrder`).
    public var leaseNode: String?
    public var leaseUntil: Int64?
    public var updatedAt: Int64

    public init(
        hostname: String, status: Status, chainPEM: String? = nil, keyPEM: String? = nil, notBefore: Int64? = nil,
        notAfter: Int64? = nil, issuer: String? = nil, renewalAt: Int64? = nil, renewalInfoCheckAt: Int64? = nil,
        lastErrorType: String? = nil, lastErrorDetail: String? = nil, failures: Int = 0, nextAttemptAt: Int64? = nil,
        leaseNode: String? = nil, leaseUntil: Int64? = nil, updatedAt: Int64
    ) {
        self.hostname = hostname
        self.status = status
        self.chainPEM = chainPEM
        self.keyPEM = keyPEM
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.issuer = issuer
        self.renewalAt = renewalAt
        self.renewalInfoCheckAt = renewalInfoCheckAt
        self.lastErrorType = lastErrorType
        self.lastErrorDetail = lastErrorDetail
        self.failures = failures
        self.nextAttemptAt = nextAttemptAt
        self.leaseNode = leaseNode
        self.leaseUntil = leaseUntil
        self.updatedAt = updatedAt
    }
}

/// The ACME account of one CA directory: its key, made once and kept, and its URL.
public struct ACMEAccountRecord: Sendable, Equatable {
    public var directoryURL: String
    /// ECDSA P-256 private key (PEM). A secret.
    public var keyPEM: String
    /// The account's URL (`kid`), once the CA has it.
    public var accountURL: String?
    public var createdAt: Int64

    public init(directoryURL: String, keyPEM: String, accountURL: String?, createdAt: Int64) {
        self.directoryURL = directoryURL
        self.keyPEM = keyPEM
        self.accountURL = accountURL
        self.createdAt = createdAt
    }
}

/// A challenge being answered: every node of a fleet answers it, whichever the CA reaches.
public struct ACMEChallengeRecord: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case http01 = "http-01"
        case tlsALPN01 = "tls-alpn-01"
    }

    public var token: String
    public var hostname: String
    public var kind: Kind
    /// `token.thumbprint`: not a secret (the CA publishes neither part's meaning), but only
    /// the account's key can make it.
    public var keyAuthorization: String
    public var expiresAt: Int64

    public init(token: String, hostname: String, kind: Kind, keyAuthorization: String, expiresAt: Int64) {
        self.token = token
        self.hostname = hostname
        self.kind = kind
        self.keyAuthorization = keyAuthorization
        self.expiresAt = expiresAt
    }
}

/// One finished order attempt, for history and the operator's questions.
public struct CertificateOrderRecord: Sendable, Equatable {
    public var hostname: String
    public var node: String
    public var startedAt: Int64
    public var finishedAt: Int64
    /// `issued`, `failed` or `rate_limited`.
    public var result: String
    public var problemType: String?
    public var detail: String?

    public init(
        hostname: String, node: String, startedAt: Int64, finishedAt: Int64, result: String, problemType: String?,
        detail: String?
    ) {
        self.hostname = hostname
        self.node = node
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.result = result
        self.problemType = problemType
        self.detail = detail
    }
}
