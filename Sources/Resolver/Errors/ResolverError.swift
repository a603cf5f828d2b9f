import Store

/// Every way `POST /api/v1/track/open` can fail; each case is exactly one wire code.
///
/// Messages are fixed texts or name a field: they never echo a value, so that a
/// key or handoff token cannot reach a client log or ours through an error.
public enum ResolverError: Error, Sendable, Equatable {
    /// 405: any method but POST (standard envelope, `Allow: POST`).
    case methodNotAllowed
    /// 400: Idempotency-Key, X-Biq-SDK, X-Biq-SDK-Version or X-Biq-Request-Id missing or malformed.
    case invalidHeaders(String)
    /// 401: key missing, malformed, unknown, revoked, or past its rotation overlap.
    case invalidMobileKey
    /// 400: wrong content type, not JSON, not an object, over 16 KB, too deep, duplicate keys.
    case invalidRequest(String)
    /// 422: unknown, missing, mistyped or out-of-bounds field.
    case validationError(String)
    /// 404: the app is not the key's (or is gone), or an exact handoff is unavailable.
    case resourceNotFound(String)
    /// 403: the Mobile App is disabled.
    case mobileLinkingUnavailable
    /// 403: the platform's SDK is switched off for the app.
    case mobileSDKUnavailable
    /// 409: eventId or Idempotency-Key reused with a different canonical request.
    case idempotencyConflict
    /// 422: the app has no configuration for the request's platform.
    case platformNotConfigured
    /// 422: X-Biq-SDK / X-Biq-SDK-Version disagree with the body.
    case headerMismatch(String)
    /// 422: probabilistic evaluation would run but `domain` is not eligible.
    case invalidProbabilisticDomain
    /// 422: the app instance is registered to the other platform.
    case platformMismatch
    /// 422: handoff and deep link name different links.
    case handoffMismatch
    /// 429: a rate-limit bucket is empty; retry after this many whole seconds (>= 1).
    case rateLimited(retryAfterSeconds: Int)
    /// 500: an unexpected failure; nothing was written (standard envelope).
    case internalServerError
    /// The store cannot be reached for now (PostgreSQL restarting, a lock held by another
    /// process): the unexpected-failure answer, with `Retry-After`.
    case storeUnavailable(retryAfterSeconds: Int)

    public var status: Int {
        switch self {
        case .methodNotAllowed: return 405
        case .invalidHeaders, .invalidRequest: return 400
        case .invalidMobileKey: return 401
        case .validationError, .platformNotConfigured, .headerMismatch, .invalidProbabilisticDomain,
            .platformMismatch, .handoffMismatch:
            return 422
        case .resourceNotFound: return 404
        case .mobileLinkingUnavailable, .mobileSDKUnavailable: return 403
        case .idempotencyConflict: return 409
        case .rateLimited: return 429
        case .internalServerError, .storeUnavailable: return 500
        }
    }

    public var code: String {
        switch self {
        case .methodNotAllowed: return "method_not_allowed"
        case .invalidHeaders: return "invalid_headers"
        case .invalidMobileKey: return "invalid_mobile_key"
        case .invalidRequest: return "invalid_request"
        case .validationError: return "validation_error"
        case .resourceNotFound: return "resource_not_found"
        case .mobileLinkingUnavailable: return "mobile_linking_unavailable"
        case .mobileSDKUnavailable: return "mobile_sdk_unavailable"
        case .idempotencyConflict: return "idempotency_conflict"
        case .platformNotConfigured: return "platform_not_configured"
        case .headerMismatch: return "header_mismatch"
        case .invalidProbabilisticDomain: return "invalid_probabilistic_domain"
        case .platformMismatch: return "platform_mismatch"
        case .handoffMismatch: return "handoff_mismatch"
        case .rateLimited: return "rate_limited"
        case .internalServerError, .storeUnavailable: return "internal_server_error"
        }
    }

    public var message: String {
        switch self {
        case .methodNotAllowed: return "Use POST for this endpoint."
        case .invalidHeaders(let m), .invalidRequest(let m), .validationError(let m), .resourceNotFound(let m),
            .headerMismatch(let m):
            return m
        case .invalidMobileKey: return "The mobile publishable key is missing, invalid, revoked, or unavailable."
        case .mobileLinkingUnavailable: return "Mobile resolution is not currently available for this app."
        case .mobileSDKUnavailable: return "The requested platform SDK is not currently available for this app."
        case .idempotencyConflict:
            return "This eventId or Idempotency-Key was already used with different request data."
        case .platformNotConfigured: return "The Mobile App does not contain this platform."
        case .invalidProbabilisticDomain:
            return "Probabilistic matching needs a verified, HTTPS-active domain attached to the iOS app."
        case .platformMismatch: return "This app instance is already registered to another platform."
        case .handoffMismatch: return "The handoff token and the deep link identify different links."
        case .rateLimited(let s): return "Too many requests; retry after \(s) seconds with the same request."
        case .internalServerError: return "An unexpected failure prevented resolution; retry the same request."
        case .storeUnavailable(let s):
            return "The attribution store cannot be reached for now; retry the same request after \(s) seconds."
        }
    }

    /// The method guard and the failure handler answer with the standard API
    /// envelope (`request_id`); everything else with the resolver's (`requestId`).
    public var usesStandardEnvelope: Bool {
        switch self {
        case .methodNotAllowed, .internalServerError, .storeUnavailable: return true
        default: return false
        }
    }
}

extension ResolverError {
    /// Seconds an SDK is told to wait when the store is away for a moment.
    static let storeRetryAfterSeconds = 2

    /// The answer to a store failure: a passing one (`StoreError.isTransient`) says when to
    /// retry, anything else is the plain unexpected failure.
    static func failure(of error: StoreError) -> ResolverError {
        error.isTransient ? .storeUnavailable(retryAfterSeconds: storeRetryAfterSeconds) : .internalServerError
    }
}
