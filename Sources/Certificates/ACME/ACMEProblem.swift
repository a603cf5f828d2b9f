import Core

/// Why an order failed: the CA's problem document (RFC 8555, section 6.7; RFC 7807) or
/// a local reason in the same shape, so that the API, `check` and the log show one
/// kind of thing. Holds no key and no token.
public struct ACMEProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var type: String
    public var detail: String
    /// The HTTP status of the CA's answer, when it came from the CA.
    public var status: Int?
    /// Milliseconds the CA asked to wait (`Retry-After`), if it did.
    public var retryAfterMilliseconds: Int64?

    public init(type: String, detail: String, status: Int? = nil, retryAfterMilliseconds: Int64? = nil) {
        // A CA's text is outside text: kept as `StorableText` makes it.
        self.type = StorableText.clean(type)
        self.detail = StorableText.clean(detail)
        self.status = status
        self.retryAfterMilliseconds = retryAfterMilliseconds
    }

    public static let acmePrefix = "urn:ietf:params:acme:error:"
    /// Local reasons: the CA could not be reached, answered nonsense, or took too long.
    public static let localPrefix = "urn:biqli-edge:acme:"

    public static func local(_ kind: String, _ detail: String) -> ACMEProblem {
        ACMEProblem(type: localPrefix + kind, detail: detail)
    }

    /// From a problem document; nil when `json` is not one.
    init?(json: JSONValue, status: Int, retryAfterMilliseconds: Int64?) {
        guard let type = json["type"]?.stringValue else { return nil }
        var detail = json["detail"]?.stringValue ?? ""
        // The first subproblem usually says which identifier and why.
        if let sub = json["subproblems"]?.arrayValue?.first, let subDetail = sub["detail"]?.stringValue,
            !detail.contains(subDetail)
        {
            detail += detail.isEmpty ? subDetail : " (" + subDetail + ")"
        }
        self.init(
            type: type, detail: String(detail.prefix(1_000)), status: status,
            retryAfterMilliseconds: retryAfterMilliseconds)
    }

    public var isBadNonce: Bool { type == Self.acmePrefix + "badNonce" }
    public var isRateLimited: Bool { type == Self.acmePrefix + "rateLimited" }
    public var isAccountMissing: Bool { type == Self.acmePrefix + "accountDoesNotExist" }

    public var description: String { detail.isEmpty ? type : type + ": " + detail }
}
