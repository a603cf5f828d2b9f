import Core

/// An error answer of the workspace API: its status and the shared component that describes it.
///
/// Written once here; `components.responses` is generated from these cases and every
/// operation refers to them, so a status and its component cannot drift apart.
enum OpenAPIErrorResponse: String, CaseIterable {
    case badRequest = "BadRequest"
    case unauthorized = "Unauthorized"
    case notFound = "NotFound"
    case conflict = "Conflict"
    case unprocessable = "Unprocessable"
    case internalError = "InternalError"

    var status: String {
        switch self {
        case .badRequest: "400"
        case .unauthorized: "401"
        case .notFound: "404"
        case .conflict: "409"
        case .unprocessable: "422"
        case .internalError: "500"
        }
    }

    var meaning: String {
        switch self {
        case .badRequest:
            "validation_error: the request cannot be read (body not a JSON object, over 65536 bytes or 16 levels, repeated keys, Content-Type not JSON, bad query parameter or Idempotency-Key)."
        case .unauthorized: "invalid_token: missing, unknown or revoked workspace secret key, or a publishable key."
        case .notFound: "resource_not_found."
        case .conflict: "domain_taken, alias_taken or idempotency_conflict."
        case .unprocessable:
            "validation_error (a field breaks a rule; details name the field and the rule) or url_blocked (every broken rule is a URL with a forbidden scheme such as javascript:, data: or file:)."
        case .internalError: "internal_server_error."
        }
    }

    /// The entry of `components.responses`.
    var component: JSONValue {
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
/// taken name or a reused Idempotency-Key (409); a delete checks no rule, so it has no 422.
extension [OpenAPIErrorResponse] {
    static var listing: Self { [.badRequest, .unauthorized, .internalError] }
    static var reading: Self { [.badRequest, .unauthorized, .notFound, .internalError] }
    static var creating: Self { [.badRequest, .unauthorized, .unprocessable, .conflict, .internalError] }
    static var changing: Self { [.badRequest, .unauthorized, .notFound, .unprocessable, .conflict, .internalError] }
    static var deleting: Self { [.badRequest, .unauthorized, .notFound, .conflict, .internalError] }
}
