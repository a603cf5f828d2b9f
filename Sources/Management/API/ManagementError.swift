import Core
import Model
import Store

/// Why a workspace-API request failed. Every case is one code of the seed's
/// `ApiError` enum, answered in the standard envelope
/// `{"error":{"code","message","details"?},"request_id"}`.
///
/// Statuses where the spec is silent (see docs/management.md):
/// a request the server cannot read (body not JSON, too large, too deep, bad query
/// or header) is 400 `validation_error`; a readable request that breaks a field rule
/// is 422 `validation_error`, or 422 `url_blocked` when every broken rule is a URL
/// with a forbidden scheme.
/// The conversion calls add (decision 0024): 403 `insufficient_scope`, 400
/// `idempotency_key_required`, 422 `invalid_click_id`, `attribution_required` and
/// `currency_unavailable`.
enum ManagementError: Error, Sendable, Equatable {
    /// 401: missing, unknown or revoked secret key, or a publishable key.
    case invalidToken
    /// 404: no such resource (`what` names it) or no such route.
    case notFound(String)
    /// 405 with `Allow`.
    case methodNotAllowed([String])
    /// 400: the request itself cannot be read.
    case malformed(FieldProblem)
    /// 422: one or more field rules are broken.
    case invalid([FieldProblem])
    /// 409: the hostname is already a domain.
    case domainTaken(String)
    /// 409: the key is already used on this domain.
    case aliasTaken(domain: String, key: String)
    /// 409: the `Idempotency-Key` was used with another request.
    case idempotencyConflict
    /// 409 `idempotency_conflict` of a lead or sale: `field` (`Idempotency-Key` or
    /// `eventId`) names an event recorded for another request.
    case eventConflict(field: String)
    /// 500: the store failed; the detail goes to the log, never to the client.
    case internalError
    /// 403: the key does not hold the scope the route needs.
    case insufficientScope(KeyScope)
    /// 400: a conversion call without `Idempotency-Key`.
    case idempotencyKeyRequired
    /// 422: `clickId` names no click of this edge.
    case invalidClickId
    /// 422: no `clickId`, and the customer has no attributed click.
    case attributionRequired
    /// 422: `currency` is not an ISO 4217 currency with a minor unit.
    case currencyUnavailable(String)
    /// 429 with `Retry-After`: a rate limit of the track calls (decision 0027).
    case rateLimited(retryAfterSeconds: Int)
    /// 401 `invalid_token` of `track/click`: no usable browser key (`biqli_pk_...`).
    case invalidBrowserKey
    /// 403: a `track/click` call without an `Origin` header (not from a browser page).
    case originRequired
    /// 403: the page's origin is not one of the workspace's hostnames.
    case originNotAllowed(String)
    /// 403: client-side click tracking is on but no hostname is allowed yet.
    case hostnameNotConfigured
    /// 400: an OPTIONS request to `track/click` that is not a CORS preflight of a POST
    /// with at most `Authorization` and `Content-Type` (`why` says what is wrong).
    case invalidPreflight(String)
    /// 403: client-side click tracking is off for the workspace, or the link does not
    /// track conversions (`why`).
    case clientClickTrackingDisabled(String)
    /// 409 `webhook_url_taken`: another endpoint (its id) has the same URL
    /// (`WebhookURLIdentity`, issue 33 item 8).
    case webhookURLTaken(endpointId: String)
    /// 429 `rate_limit_exceeded` with `Retry-After`: the endpoint was sent its
    /// `WebhookTestLimit` of test events in the last minute.
    case webhookTestLimited(retryAfterSeconds: Int)
    /// 409 `external_id_taken`: another link (its id) has this `externalId` (issue 35).
    case externalIdTaken(linkId: String)
    /// 409 `tag_name_taken`: another tag (its id) has this name, ignoring case.
    case tagNameTaken(tagId: String)

    static func invalid(_ field: String, _ rule: String) -> ManagementError {
        .invalid([FieldProblem(field, rule)])
    }

    var status: Int {
        switch self {
        case .invalidToken: return 401
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .malformed: return 400
        case .invalid: return 422
        case .domainTaken, .aliasTaken, .idempotencyConflict, .eventConflict, .webhookURLTaken, .externalIdTaken,
            .tagNameTaken:
            return 409
        case .internalError: return 500
        case .insufficientScope: return 403
        case .idempotencyKeyRequired: return 400
        case .invalidClickId, .attributionRequired, .currencyUnavailable: return 422
        case .rateLimited, .webhookTestLimited: return 429
        case .invalidBrowserKey: return 401
        case .originRequired, .originNotAllowed, .hostnameNotConfigured, .clientClickTrackingDisabled: return 403
        case .invalidPreflight: return 400
        }
    }

    var code: String {
        switch self {
        case .invalidToken: return "invalid_token"
        case .notFound: return "resource_not_found"
        case .methodNotAllowed: return "method_not_allowed"
        case .malformed: return "validation_error"
        case .invalid(let problems):
            return !problems.isEmpty && problems.allSatisfy(\.blocked) ? "url_blocked" : "validation_error"
        case .domainTaken: return "domain_taken"
        case .aliasTaken: return "alias_taken"
        case .idempotencyConflict, .eventConflict: return "idempotency_conflict"
        case .internalError: return "internal_server_error"
        case .insufficientScope: return "insufficient_scope"
        case .idempotencyKeyRequired: return "idempotency_key_required"
        case .invalidClickId: return "invalid_click_id"
        case .attributionRequired: return "attribution_required"
        case .currencyUnavailable: return "currency_unavailable"
        case .rateLimited, .webhookTestLimited: return "rate_limit_exceeded"
        case .webhookURLTaken: return "webhook_url_taken"
        case .externalIdTaken: return "external_id_taken"
        case .tagNameTaken: return "tag_name_taken"
        case .invalidBrowserKey: return "invalid_token"
        case .originRequired: return "origin_required"
        case .originNotAllowed: return "origin_not_allowed"
        case .hostnameNotConfigured: return "hostname_not_configured"
        case .invalidPreflight: return "invalid_preflight"
        case .clientClickTrackingDisabled: return "client_click_tracking_disabled"
        }
    }

    var message: String {
        switch self {
        case .invalidToken:
            return
                "Send a workspace secret key: Authorization: Bearer biqli_sk_... (create one with `biqli-edge keys create`)."
        case .notFound(let what): return what
        case .methodNotAllowed(let allowed): return "Use " + allowed.joined(separator: ", ") + " on this path."
        case .malformed(let problem): return problem.sentence
        case .invalid(let problems):
            guard let first = problems.first else { return "The request is invalid." }
            let listed =
                problems.count > FieldProblem.maxListed
                ? "details.errors lists the first \(FieldProblem.maxListed)" : "see details.errors"
            let more = problems.count > 1 ? " (and \(problems.count - 1) more; \(listed))" : ""
            return first.sentence + more
        case .domainTaken(let host): return "The domain \(host) already exists."
        case .aliasTaken(let domain, let key): return "The key \(key) is already used on \(domain)."
        case .idempotencyConflict:
            return "This Idempotency-Key was already used with a different request; use a new key for a new request."
        case .eventConflict(let field):
            return
                "This \(field) was already used by an event of another request (another body or event type); send a new one for a new event."
        case .internalError: return "An unexpected failure prevented the request; retry it."
        case .insufficientScope(let scope):
            return
                "This key does not hold the \(scope.rawValue) scope; create one that does (biqli-edge keys create --scope \(scope.rawValue))."
        case .idempotencyKeyRequired:
            return "Send an Idempotency-Key header (1 to 255 bytes, no control character), the same on every retry."
        case .invalidClickId: return "clickId names no click of this workspace."
        case .attributionRequired:
            return "Send clickId: this customer has no attributed click yet (a lead with clickId attributes it)."
        case .currencyUnavailable(let code):
            return "The currency \(code) is not an ISO 4217 currency with a minor unit."
        case .rateLimited(let seconds):
            return "Too many requests; retry after \(seconds) seconds with the same request."
        case .invalidBrowserKey:
            return
                "Send a workspace browser key: Authorization: Bearer biqli_pk_... (create one with `biqli-edge keys create --browser`)."
        case .originRequired:
            return "Call track/click from a web page: the request has no Origin header."
        case .originNotAllowed(let origin):
            return
                "The origin \(origin) is not allowed; add its hostname to the workspace's client-click-tracking hostnames."
        case .hostnameNotConfigured:
            return
                "No hostname is allowed to track clicks yet; add the site's hostnames to the workspace's client-click-tracking settings."
        case .invalidPreflight(let why): return "Not a valid CORS preflight for track/click: \(why)."
        case .clientClickTrackingDisabled(let why): return why
        case .webhookURLTaken(let id):
            return
                "The webhook endpoint \(id) already has this URL; change that endpoint (its events, its filters) instead of adding another."
        case .externalIdTaken(let id):
            return "The link \(id) already has this externalId; an external id names one link of the workspace."
        case .tagNameTaken(let id):
            return "The tag \(id) already has this name (names are compared ignoring case)."
        case .webhookTestLimited(let seconds):
            return
                "An endpoint is sent at most \(WebhookTestLimit.perWindow) test events a minute; retry after \(seconds) seconds."
        }
    }

    var details: JSONValue? {
        switch self {
        case .malformed(let problem): return FieldProblem.details([problem])
        case .invalid(let problems): return FieldProblem.details(problems)
        case .methodNotAllowed(let allowed): return .object([("allowed", .array(allowed.map { .string($0) }))])
        case .domainTaken(let host): return .object([("field", "hostname"), ("hostname", .string(host))])
        case .aliasTaken(let domain, let key):
            return .object([("field", "key"), ("domain", .string(domain)), ("key", .string(key))])
        case .insufficientScope(let scope): return .object([("requiredScope", .string(scope.rawValue))])
        case .idempotencyKeyRequired: return .object([("field", "Idempotency-Key")])
        case .invalidClickId: return .object([("field", "clickId")])
        case .eventConflict(let field): return .object([("field", .string(field))])
        case .attributionRequired: return .object([("field", "clickId")])
        case .currencyUnavailable(let code): return .object([("field", "currency"), ("currency", .string(code))])
        case .rateLimited(let seconds), .webhookTestLimited(let seconds):
            return .object([("retryAfter", .int(Int64(seconds)))])
        case .webhookURLTaken(let id): return .object([("field", "url"), ("endpointId", .string(id))])
        case .externalIdTaken(let id): return .object([("field", "externalId"), ("linkId", .string(id))])
        case .tagNameTaken(let id): return .object([("field", "name"), ("tagId", .string(id))])
        case .originNotAllowed(let origin): return .object([("origin", .string(origin))])
        default: return nil
        }
    }

    /// The standard envelope.
    func body(requestId: String) -> JSONValue {
        var error: [(String, JSONValue)] = [("code", .string(code)), ("message", .string(message))]
        if let details { error.append(("details", details)) }
        return .object([("error", .object(error)), ("request_id", .string(requestId))])
    }
}

extension ManagementError {
    /// The refusal a failed operation means to its caller: itself when it is one, the
    /// store's conflicts a client can act on as the field they concern; nil for the rest,
    /// which the caller logs and answers as `internal_server_error`.
    init?(answering error: any Error) {
        if let e = error as? ManagementError {
            self = e
            return
        }
        guard let e = error as? StoreError else { return nil }
        switch e {
        case .conflict(.domain): self = .invalid("hostname", "is already a domain")
        case .conflict(.linkKey): self = .invalid("key", "is already used on this domain")
        case .missingReference(.domain): self = .invalid("domain", "names no domain; create the domain first")
        case .missingReference(.app): self = .invalid("mobile.appId", "names no Mobile App")
        case .conflict(.externalId): self = .invalid("externalId", "is already the external id of another link")
        case .conflict(.tagName): self = .invalid("name", "is already the name of another tag")
        case .missingReference(.tag): self = .invalid("tagIds", "names a tag that does not exist")
        case .textWithNUL: self = .malformed(FieldProblem("request", "must not contain a NUL byte (U+0000)"))
        default: return nil
        }
    }
}
