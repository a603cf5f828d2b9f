import Store

/// A hostname's ACME state as the API, `check` and `/metrics` show it (no key, no chain).
public struct ManagedCertificate: Sendable, Equatable {
    public var hostname: String
    public var status: StoredCertificate.Status
    public var notAfter: Int64?
    public var issuer: String?
    public var lastErrorType: String?
    public var lastErrorDetail: String?
    public var failures: Int
    public var nextAttemptAt: Int64?
    public var renewalAt: Int64?

    public init(_ record: StoredCertificate) {
        hostname = record.hostname
        status = record.status
        notAfter = record.chainPEM == nil ? nil : record.notAfter
        issuer = record.chainPEM == nil ? nil : record.issuer
        lastErrorType = record.lastErrorType
        lastErrorDetail = record.lastErrorDetail
        failures = record.failures
        nextAttemptAt = record.nextAttemptAt
        renewalAt = record.renewalAt
    }
}
