import Core

/// An error status of the workspace API: the codes every operation answers with it, and
/// what it means. Each operation's answer narrows the envelope's `error.code` to its own
/// codes (`answer(more:)`); the transport's 413 and 414 are shared components.
enum OpenAPIErrorResponse: String, CaseIterable {
    case badRequest = "BadRequest"
    case unauthorized = "Unauthorized"
    case forbidden = "Forbidden"
    case notFound = "NotFound"
    case conflict = "Conflict"
    case contentTooLarge = "ContentTooLarge"
    case uriTooLong = "UriTooLong"
    case unprocessable = "Unprocessable"
    case internalError = "InternalError"

    var status: String {
        switch self {
        case .badRequest: "400"
        case .unauthorized: "401"
        case .forbidden: "403"
        case .notFound: "404"
        case .conflict: "409"
        case .contentTooLarge: "413"
        case .uriTooLong: "414"
        case .unprocessable: "422"
        case .internalError: "500"
        }
    }

    /// The codes every operation that lists this status can answer with it; an
    /// operation adds its own (`operation(more:)`).
    var codes: [ManagementErrorCode] {
        switch self {
        case .badRequest: [.validationError]
        case .unauthorized: [.invalidToken]
        case .forbidden: [.insufficientScope]
        case .notFound: [.resourceNotFound]
        case .conflict: [.idempotencyConflict]
        case .contentTooLarge, .uriTooLong: []
        case .unprocessable: [.validationError]
        case .internalError: [.internalServerError]
        }
    }

    var meaning: String {
        switch self {
        case .badRequest:
            "the request cannot be read: body missing where one is required, not a JSON object, over 65536 bytes, 16 levels or 4096 values, repeated keys or invalid UTF-8; an unknown, repeated or invalid query parameter (an empty cursor too); an Idempotency-Key or X-Biq-Request-Id that breaks its rule or comes twice. details.field names the body member, the parameter or the header."
        case .unauthorized:
            "missing, unknown or revoked workspace secret key, a publishable key, or two Authorization headers."
        case .forbidden:
            "the key was made with --scope and does not hold the scope this operation needs (details.requiredScope)."
        case .notFound: "no such resource."
        case .conflict:
            "the Idempotency-Key was used with another request (idempotency_conflict), or a name is taken (details.field)."
        case .contentTooLarge:
            "The body is over 1 MiB: the transport refuses it before the API reads it (plain text, no request id) and closes the connection."
        case .uriTooLong:
            "The request line (method, path and query) is over 8 KiB: the transport refuses it before the API sees it (plain text, no request id) and closes the connection."
        case .unprocessable:
            "a field breaks a rule (validation_error: details name the field and the rule), or every broken rule is a URL with a forbidden scheme such as javascript:, data: or file: (url_blocked)."
        case .internalError: "an unexpected failure; retry."
        }
    }

    /// Refused by the transport, not the API: plain text without the API's headers.
    var isTransport: Bool { self == .contentTooLarge || self == .uriTooLong }

    /// The transport's refusals, shared by every operation (`components.responses`).
    static var components: JSONValue {
        .object(
            allCases.filter(\.isTransport).map {
                (
                    $0.rawValue,
                    ["description": .string($0.meaning), "content": ["text/plain": ["schema": ["type": "string"]]]]
                )
            })
    }

    /// This status's answer of an operation that can also answer `more` codes with it:
    /// the transport's shared component, or the envelope narrowed to the codes.
    func answer(more: [ManagementErrorCode] = []) -> JSONValue {
        if isTransport { return reference }
        var headers = OpenAPIDocument.standardHeaders
        // A 401 tells the client which scheme to use (RFC 9110 11.6.1).
        if self == .unauthorized { headers.append(("WWW-Authenticate", ["schema": ["type": "string"]])) }
        return OpenAPIDocument.errorAnswer(
            codes: (codes + more.filter { !codes.contains($0) }).map(\.rawValue), meaning: meaning,
            envelope: "ApiError", headers: headers)
    }

    var reference: JSONValue { OpenAPIDocument.ref("responses", rawValue) }
}

/// The error answers of each kind of operation.
///
/// Only routes with an id or hostname in the path can miss (404); only writes can meet a
/// taken name or a reused Idempotency-Key (409) or carry a body over 1 MiB (413); a delete
/// checks no rule, so it has no 422. Any request line can be too long (414).
extension [OpenAPIErrorResponse] {
    static var meta: Self { [.badRequest, .uriTooLong] }
    static var listing: Self { [.badRequest, .unauthorized, .forbidden, .uriTooLong, .internalError] }
    static var reading: Self { [.badRequest, .unauthorized, .forbidden, .notFound, .uriTooLong, .internalError] }
    static var creating: Self {
        [
            .badRequest, .unauthorized, .forbidden, .conflict, .contentTooLarge, .uriTooLong, .unprocessable,
            .internalError,
        ]
    }
    static var changing: Self {
        [
            .badRequest, .unauthorized, .forbidden, .notFound, .conflict, .contentTooLarge, .uriTooLong,
            .unprocessable, .internalError,
        ]
    }
    static var deleting: Self {
        [.badRequest, .unauthorized, .forbidden, .notFound, .conflict, .contentTooLarge, .uriTooLong, .internalError]
    }
}
