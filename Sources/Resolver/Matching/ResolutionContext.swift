import Model
import Store

/// Everything the write body needs, computed on the event loop before the
/// request is handed to the store's writer: the writer thread, shared by every
/// loop, only does what must be serialised (idempotency, handoff binding,
/// first-open state, candidate consumption) and the writes.
///
/// A class: the write closure, its retry and the completion share one copy.
final class ResolutionContext: Sendable {
    let request: OpenRequest
    let app: MobileApp
    let idempotencyKey: String
    let idempotencyKeyHash: [UInt8]
    let requestHash: [UInt8]
    /// The request's handoff token (see `HandoffInput`).
    let handoff: HandoffInput
    /// The exact app-link match of the request's deep link, from the loop's
    /// (cached) reader: it does not depend on anything the writer changes.
    let appLink: Match?
    /// Set when probabilistic evaluation would run if no exact match is found.
    let probabilistic: ProbabilisticPlan?
    let now: Int64
    /// Generated up front so that a retried write keeps the same identifiers.
    let openId: String
    /// Without a handoff token: the answer unless idempotency, first-open
    /// immutability or probabilistic matching decide otherwise (the app link or
    /// none), its stored response rendered here so that the writer does not.
    let expectedStored: [UInt8]
    /// The receipt of that expected answer when it is the app link, signed here for
    /// the same reason: the writer stores it with the open event (issue 14). Of the matches
    /// it alone decides (handoff, probabilistic) it stores the receipt's signed part, and
    /// the loop signs it after the commit (decision 0023).
    let expectedReceipt: SignedReceipt?
    /// Prepares the receipts of those (on the writer); the loop that answers signs them.
    let signer: ReceiptSigner

    init(
        request: OpenRequest, app: MobileApp, idempotencyKey: String, idempotencyKeyHash: [UInt8],
        requestHash: [UInt8], handoff: HandoffInput, appLink: Match?, probabilistic: ProbabilisticPlan?, now: Int64,
        openId: String, signer: ReceiptSigner
    ) {
        self.request = request
        self.app = app
        self.idempotencyKey = idempotencyKey
        self.idempotencyKeyHash = idempotencyKeyHash
        self.requestHash = requestHash
        self.handoff = handoff
        self.appLink = appLink
        self.probabilistic = probabilistic
        self.now = now
        self.openId = openId
        self.signer = signer
        if case .none = handoff {
            expectedStored = OpenResponseBody.render(openId: openId, firstOpen: request.firstOpen, match: appLink)
            expectedReceipt = appLink.map { link in
                signer.sign(request: request, appId: app.id, openId: openId, match: link, now: now)
            }
        } else {
            expectedStored = []
            expectedReceipt = nil
        }
    }
}

/// A request's handoff token. The writer reads and claims the handoff itself
/// (inside its transaction a read takes no file lock, which a loop's read
/// does), after idempotency and first-open immutability.
enum HandoffInput: Sendable {
    /// The request has no token.
    case none
    /// Not `bqmh_` + 43 base64url characters: never looked up.
    case malformed
    /// Its storage key (`HandoffToken.hash`).
    case token([UInt8])
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
    /// A stored response answered again, nothing written. `receipt` is the stored
    /// receipt of the same event while it is valid; nil otherwise, and for an
    /// earlier event's answer given to a new one (first-open immutability, a
    /// handoff's binding instance asking again).
    case replay(stored: [UInt8], receipt: ReceiptBytes?)
    /// A new open event was written with `receipt` (nil for `none`).
    case live(stored: [UInt8], receipt: ReceiptBytes?)
    /// Refused before anything was written. `abuse` marks failures that count
    /// toward the per-address bucket of invalid tokens.
    case rejected(ResolverError, abuse: Bool)
}
