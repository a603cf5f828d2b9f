import Core

/// An error answer of the workspace API: its status and the shared component that describes it.
///
/// Written once here; `components.responses` is generated from these cases and every
/// operation refers to them, so a status and its component cannot drift apart.
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

    var meaning: String {
        switch self {
        case .badRequest:
            "validation_error: the request cannot be read: body missing where one is required, not a JSON object, over 65536 bytes or 16 levels, repeated keys or invalid UTF-8; an unknown, repeated or invalid query parameter (an empty cursor too); an Idempotency-Key or X-Biq-Request-Id that breaks its rule or comes twice. details.field names the body member, the parameter or the header."
        case .unauthorized:
            "invalid_token: missing, unknown or revoked workspace secret key, a publishable key, or two Authorization headers."
        case .forbidden:
            "insufficient_scope: the key was made with --scope and does not hold the scope this operation needs (details.requiredScope)."
        case .notFound: "resource_not_found."
        case .conflict: "domain_taken, alias_taken or idempotency_conflict."
        case .contentTooLarge:
            "The body is over 1 MiB: the transport refuses it before the API reads it (plain text, no request id) and closes the connection."
        case .uriTooLong:
            "The request line (method, path and query) is over 8 KiB: the transport refuses it before the API sees it (plain text, no request id) and closes the connection."
        case .unprocessable:
            "validation_error (a field breaks a rule; details name the field and the rule) or url_blocked (every broken rule is a URL with a forbidden scheme such as javascript:, data: or file:)."
        case .internalError: "internal_server_error."
        }
    }

    /// Refused by the transport, not the API: plain text without the API's headers.
    var isTransport: Bool { self == .contentTooLarge || self == .uriTooLong }

    /// The entry of `components.responses`.
    var component: JSONValue {
        if isTransport {
            return [
                "description": .string(meaning),
                "content": ["text/plain": ["schema": ["type": "string"]]],
            ]
        }
        var headers = OpenAPIDocument.standardHeaders
        // A 401 tells the client which scheme to use (RFC 9110 11.6.1).
        if self == .unauthorized { headers.append(("WWW-Authenticate", ["schema": ["type": "string"]])) }
        return [
            "description": .string(meaning),
            "headers": .object(headers),
            "content": OpenAPIDocument.jsonContent(OpenAPIDocument.schemaRef("ApiError")),
        ]
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
