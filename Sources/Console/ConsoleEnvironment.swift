import Core
import Store

/// What the console learns from the edge that runs it (a value, so that tests build one
/// without a server).
public struct ConsoleEnvironment: Sendable {
    /// Unix milliseconds.
    public var now: @Sendable () -> Int64
    /// Runs work on event loop `loop`'s thread, later (to answer there after a write).
    public var resumeOnLoop: @Sendable (_ loop: Int, _ work: @escaping @Sendable () -> Void) -> Void
    /// What serves a domain over HTTPS now.
    public var certificate: @Sendable (_ hostname: String) -> CertificateStatus
    /// The findings of `biqli-edge check` about the workspace's domains and apps, from a
    /// reader (called on the console's background thread, with its own reader).
    public var domainFindings: @Sendable (_ reader: any StoreReader) throws -> [DomainFinding]
    /// Where the domains' DNS must point (asked when the page is made: the listeners'
    /// ports are known once they are bound).
    public var dns: @Sendable () -> DNSTarget
    /// The operational log. Never a token, key or address in it.
    public var log: Logger
    /// Counts a background job's outcome for `/metrics` (`job`: `overview`): a count that
    /// failed is logged and counted, the pages keep the last one, the edge serves on.
    public var counted: @Sendable (_ job: String, _ succeeded: Bool) -> Void

    public init(
        now: @escaping @Sendable () -> Int64,
        resumeOnLoop: @escaping @Sendable (Int, @escaping @Sendable () -> Void) -> Void,
        certificate: @escaping @Sendable (String) -> CertificateStatus,
        domainFindings: @escaping @Sendable (any StoreReader) throws -> [DomainFinding],
        dns: @escaping @Sendable () -> DNSTarget,
        log: Logger,
        counted: @escaping @Sendable (String, Bool) -> Void = { _, _ in }
    ) {
        self.now = now
        self.resumeOnLoop = resumeOnLoop
        self.certificate = certificate
        self.domainFindings = domainFindings
        self.dns = dns
        self.log = log
        self.counted = counted
    }
}

/// The certificate that serves a domain over HTTPS, as the edge knows it.
public struct CertificateStatus: Sendable, Equatable {
    /// `valid`, `expired`, `pending`, `failed` or `none` (no certificate covers the name).
    public var status: String
    /// Where it comes from: `directory`, `acme`, `self-signed` or `none`.
    public var source: String
    /// Unix milliseconds.
    public var notAfter: Int64?
    /// The issuer's name (`CN=R11,O=Let's Encrypt,C=US`) when known.
    public var issuer: String?
    /// The last failure to get one, when there was one.
    public var problem: String?

    public init(status: String, source: String, notAfter: Int64? = nil, issuer: String? = nil, problem: String? = nil) {
        self.status = status
        self.source = source
        self.notAfter = notAfter
        self.issuer = issuer
        self.problem = problem
    }
}

/// One finding of `biqli-edge check` (its `CheckFinding`), as the domains page lists it.
public struct DomainFinding: Sendable, Equatable {
    /// `ok`, `warning` or `error`.
    public var severity: String
    public var code: String
    /// A hostname, an app id, or what else it is about.
    public var subject: String
    public var message: String
    public var fix: String?

    public init(severity: String, code: String, subject: String, message: String, fix: String?) {
        self.severity = severity
        self.code = code
        self.subject = subject
        self.message = message
        self.fix = fix
    }
}

/// Where a link domain's DNS must point so that its visitors reach this edge.
public struct DNSTarget: Sendable, Equatable {
    /// A name the domains can be a CNAME of (the host of `BIQLI_EDGE_PUBLIC_URL` when it
    /// is a DNS name other than localhost); nil when there is none.
    public var canonicalName: String?
    /// The HTTPS listener's port (443 in production).
    public var httpsPort: Int?
    /// The plain-HTTP listener's port.
    public var httpPort: Int?

    public init(canonicalName: String?, httpsPort: Int?, httpPort: Int?) {
        self.canonicalName = canonicalName
        self.httpsPort = httpsPort
        self.httpPort = httpPort
    }
}
