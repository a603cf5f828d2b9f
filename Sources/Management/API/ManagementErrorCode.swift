/// Every code of the workspace API's error envelope (`ManagementError.code`). The
/// document's `ApiError` enum is exactly these, and each operation names those it can
/// answer (issue 33 item 12: the seed's enum listed 13 the edge never returns).
/// `ManagementErrorCodeTests` holds them to `ManagementError`.
enum ManagementErrorCode: String, CaseIterable, Sendable {
    case invalidToken = "invalid_token"
    case insufficientScope = "insufficient_scope"
    case resourceNotFound = "resource_not_found"
    case methodNotAllowed = "method_not_allowed"
    case validationError = "validation_error"
    case urlBlocked = "url_blocked"
    case domainTaken = "domain_taken"
    case aliasTaken = "alias_taken"
    case idempotencyConflict = "idempotency_conflict"
    case idempotencyKeyRequired = "idempotency_key_required"
    case invalidClickId = "invalid_click_id"
    case attributionRequired = "attribution_required"
    case currencyUnavailable = "currency_unavailable"
    case rateLimitExceeded = "rate_limit_exceeded"
    case originRequired = "origin_required"
    case originNotAllowed = "origin_not_allowed"
    case hostnameNotConfigured = "hostname_not_configured"
    case invalidPreflight = "invalid_preflight"
    case clientClickTrackingDisabled = "client_click_tracking_disabled"
    case webhookURLTaken = "webhook_url_taken"
    case externalIdTaken = "external_id_taken"
    case tagNameTaken = "tag_name_taken"
    case internalServerError = "internal_server_error"
}
