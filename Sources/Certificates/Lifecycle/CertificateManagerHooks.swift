/// What the manager needs from the rest of the edge, which it does not import.
public struct CertificateManagerHooks: Sendable {
    /// The configured domains' hostnames now (nil: not known this time).
    public var domains: @Sendable () -> [String]?
    /// True when an operator's certificate (the directory, valid, not self-signed) covers the name.
    public var directoryCovers: @Sendable (String) -> Bool
    /// Serve these certificates from now on (all of them: the previous list is replaced).
    public var serve: @Sendable ([ServedCertificate]) -> Void
    /// Present `pem` to clients that offer `acme-tls/1` for the hostname, or stop.
    public var presentALPN: @Sendable (String, [UInt8]) -> Void
    public var withdrawALPN: @Sendable (String) -> Void
    /// What happened, for the log.
    public var event: @Sendable (CertificateEvent) -> Void

    public init(
        domains: @escaping @Sendable () -> [String]?, directoryCovers: @escaping @Sendable (String) -> Bool,
        serve: @escaping @Sendable ([ServedCertificate]) -> Void,
        presentALPN: @escaping @Sendable (String, [UInt8]) -> Void,
        withdrawALPN: @escaping @Sendable (String) -> Void, event: @escaping @Sendable (CertificateEvent) -> Void
    ) {
        self.domains = domains
        self.directoryCovers = directoryCovers
        self.serve = serve
        self.presentALPN = presentALPN
        self.withdrawALPN = withdrawALPN
        self.event = event
    }
}

/// What the manager did, for the log. Carries no key, no token, no MAC key.
public enum CertificateEvent: Sendable {
    case accountRegistered(directory: String, account: String)
    case orderStarted(hostname: String, renewal: Bool)
    case challengePublished(hostname: String, kind: String)
    case issued(hostname: String, notAfter: Int64, issuer: String, renewalAt: Int64)
    /// One per failed attempt, with the CA's problem document.
    case orderFailed(hostname: String, problem: ACMEProblem, failures: Int, nextAttemptAt: Int64)
    case renewalInformation(hostname: String, renewalAt: Int64)
    case storeFailed(String)
}
