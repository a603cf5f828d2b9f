import Core

/// A domain's `certificate` in the API (read-only): what serves the domain over HTTPS
/// now, and the state of its ACME orders (decision 0017). The edge fills it
/// (`ManagementEnvironment.certificate`); Management only shows it.
public struct DomainCertificate: Sendable, Equatable {
    public enum Source: String, Sendable, CaseIterable {
        /// An operator's file in the certificate directory.
        case directory
        /// Ordered by the edge through ACME (or being ordered).
        case acme
        /// A self-signed file of the certificate directory (the generated `default.pem`).
        case selfSigned = "self-signed"
        case none
    }

    public enum Status: String, Sendable, CaseIterable {
        /// A certificate serves the domain and is valid now.
        case valid
        /// The certificate that serves the domain has expired (or is not yet valid).
        case expired
        /// No certificate yet; an ACME order is due or under way.
        case pending
        /// No certificate yet, and the last ACME order failed (`lastError`).
        case failed
        case none
    }

    /// The CA's problem document (or the edge's own reason, `urn:biqli-edge:acme:*`).
    public struct Problem: Sendable, Equatable {
        public var type: String
        public var detail: String

        public init(type: String, detail: String) {
            self.type = type
            self.detail = detail
        }
    }

    public var source: Source = .none
    public var status: Status = .none
    /// Unix milliseconds.
    public var notAfter: Int64?
    public var issuer: String?
    /// The last ACME order's failure (cleared by a success).
    public var lastError: Problem?
    /// The next ACME order: the retry after a failure, or the renewal of an ordered certificate.
    public var nextAttemptAt: Int64?

    public init() {}

    var json: JSONValue {
        .object([
            ("source", .string(source.rawValue)), ("status", .string(status.rawValue)),
            ("notAfter", ResourceJSON.time(orNull: notAfter)), ("issuer", .string(orNull: issuer)),
            (
                "lastError",
                lastError.map { .object([("type", .string($0.type)), ("detail", .string($0.detail))]) } ?? .null
            ),
            ("nextAttemptAt", ResourceJSON.time(orNull: nextAttemptAt)),
        ])
    }
}
