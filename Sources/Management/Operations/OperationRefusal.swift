/// Why an operation refused, for callers of `WorkspaceOperations` (the operator console):
/// what the workspace API would answer, as values. `problems` name the fields with the
/// API's JSON paths (`url`, `mobile.route`), each with the API's rule.
public struct OperationRefusal: Error, Sendable, Equatable {
    /// The API's status (404, 409, 422, ...).
    public let status: Int
    /// The API's error code (`validation_error`, `alias_taken`, ...).
    public let code: String
    /// The API's message.
    public let message: String
    /// The broken field rules, when the refusal is about fields.
    public let problems: [FieldProblem]
    /// When to try again, for a rate limit's refusal (429).
    public let retryAfterSeconds: Int?

    init(_ error: ManagementError) {
        status = error.status
        code = error.code
        message = error.message
        if case .webhookTestLimited(let seconds) = error {
            retryAfterSeconds = seconds
        } else {
            retryAfterSeconds = nil
        }
        switch error {
        case .invalid(let list): problems = list
        case .malformed(let problem): problems = [problem]
        case .aliasTaken(let domain, let key):
            problems = [FieldProblem("key", "is already used on \(domain) (\(key))")]
        case .domainTaken: problems = [FieldProblem("hostname", "is already a domain")]
        case .webhookURLTaken(let id): problems = [FieldProblem("url", "is already the URL of endpoint \(id)")]
        case .externalIdTaken(let id): problems = [FieldProblem("externalId", "is already the external id of \(id)")]
        case .tagNameTaken(let id): problems = [FieldProblem("name", "is already the name of tag \(id)")]
        default: problems = []
        }
    }
}
