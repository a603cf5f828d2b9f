import Store

/// How the certificate manager orders (from `BIQLI_EDGE_ACME_*`).
public struct ACMESettings: Sendable {
    /// Let's Encrypt's production directory: the default.
    public static let letsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"
    /// Let's Encrypt's staging directory: untrusted certificates, generous limits, for trying.
    public static let letsEncryptStaging = "https://acme-staging-v02.api.letsencrypt.org/directory"

    public var directoryURL: String
    /// The account's contact (`mailto:`), where the CA writes about expiring certificates.
    public var email: String?
    public var externalAccount: ExternalAccount?
    /// PEM file of the roots that the CA's HTTPS certificate is checked against; nil: the system's.
    public var rootsFile: String?
    /// This node's name: who holds an order's claim.
    public var node: String
    public var userAgent: String
    /// The challenge types this edge can answer (its listeners), best first.
    public var challenges: [ACMEChallengeRecord.Kind]
    /// Other nodes may be the one the CA reaches (PostgreSQL): a challenge is announced
    /// to the CA only once they have had the time to learn it from the store.
    public var fleet: Bool
    public var policy: RenewalPolicy
    /// How often the store's certificates and challenges are checked for changes by other nodes.
    public var storePollMilliseconds: Int64 = 1_000
    /// How often the configured domains are looked at.
    public var domainsPollMilliseconds: Int64 = 1_000
    /// How long a node's claim on ordering a hostname holds without being released.
    public var leaseMilliseconds: Int64 = 10 * 60_000
    /// How long one order may take.
    public var orderTimeoutMilliseconds: Int64 = 5 * 60_000

    public init(
        directoryURL: String, email: String?, externalAccount: ExternalAccount?, rootsFile: String?, node: String,
        userAgent: String, challenges: [ACMEChallengeRecord.Kind], fleet: Bool, policy: RenewalPolicy = RenewalPolicy()
    ) {
        self.directoryURL = directoryURL
        self.email = email
        self.externalAccount = externalAccount
        self.rootsFile = rootsFile
        self.node = node
        self.userAgent = userAgent
        self.challenges = challenges
        self.fleet = fleet
        self.policy = policy
    }
}

/// A certificate that the manager wants served, for the HTTP server to load.
public struct ServedCertificate: Sendable, Equatable {
    public var hostname: String
    /// Chain, then key (PEM). A secret.
    public var pem: [UInt8]
    /// Changes when `pem` does.
    public var version: String
}
