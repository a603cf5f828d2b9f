import Store

/// Everything the write body needs, computed on the event loop before the
/// request is handed to the store's writer: the writer thread, shared by every
/// loop, only does what must be serialised (idempotency, handoff binding,
/// first-open state, candidate consumption) and the writes.
struct ResolutionContext: Sendable {
    var request: OpenRequest
    var app: MobileApp
    var idempotencyKeyHash: [UInt8]
    var requestHash: [UInt8]
    /// SHA-256 of a well-formed handoff token; nil when the request has none or a
    /// malformed one (see `hasHandoffToken`).
    var tokenHash: [UInt8]?
    /// The exact app-link match of the request's deep link, from the loop's
    /// (cached) reader: it does not depend on anything the writer changes.
    var appLink: Match?
    /// Set when probabilistic evaluation would run if no exact match is found.
    var probabilistic: ProbabilisticPlan?
    var now: Int64
    /// Generated up front so that a retried write keeps the same identifiers.
    var openId: String
}

/// A probabilistic evaluation that the request qualifies for.
struct ProbabilisticPlan: Sendable {
    /// The request's `domain`, when it is verified, HTTPS-active and attached to
    /// the app; nil makes the evaluation `invalid_probabilistic_domain`.
    var eligibleDomain: String?
    var sourceHash: [UInt8]
    /// Oldest click time considered: receipt time minus the app's window.
    var since: Int64
}

/// What the write body decided.
enum Outcome: Sendable {
    /// A stored response answered again: no receipt, nothing written.
    case replay(stored: [UInt8])
    /// A new open event was written; `match` is nil for `none`.
    case live(stored: [UInt8], match: Match?)
    /// Refused before anything was written. `abuse` marks failures that count
    /// toward the per-address bucket of invalid tokens.
    case rejected(ResolverError, abuse: Bool)
}
