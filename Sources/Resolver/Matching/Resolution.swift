import Model
import Store

/// The body that runs on the store's writer, inside the current group-commit
/// batch: steps 2-6 of the contract's matching order plus the first-open
/// bookkeeping, so that the open event, the handoff binding, the consumed click,
/// the instance state and the stored response commit together.
///
/// Every refusal and replay is decided before the first write, so it returns
/// with nothing written. The handoff's binding is a write that also reads the
/// handoff, and it binds only what is a live match by then. A write that fails afterwards throws, which rolls the body's
/// work back; a `.conflict` there (another writer won a race this body could
/// not see, e.g. on a multi-process backend) makes the resolver run the body
/// once more, when it will see the winner and answer a replay or a refusal.
///
/// What cannot change (the app link, the stored response of an answer without a
/// handoff and its receipt) was prepared on the event loop (decision 0008). The
/// receipt of a match only this body can decide (handoff, probabilistic) is prepared
/// here and stored unsigned with the event in one commit (issue 14); the loop that
/// answers signs it (decision 0023).
enum Resolution {
    static let unavailableHandoff = ResolverError.resourceNotFound("The handoff is unknown, expired or unavailable.")

    static func run(_ c: ResolutionContext, in tx: any OpenWriting & VisitWriting & LinkReading & WebhookWriting)
        throws(StoreError) -> Outcome
    {
        let r = c.request
        let appId = c.app.id

        // 1 (last part) and 2, read together (one round trip on PostgreSQL).
        let state = try tx.resolutionState(
            app: appId, instance: r.appInstanceId, eventId: r.eventId, idempotencyKey: c.idempotencyKey,
            keyHash: c.idempotencyKeyHash)
        // 1. The instance's platform.
        let instance = state.instance
        if let instance, instance.platform != r.platform { return .rejected(.platformMismatch, abuse: false) }

        // 2. Idempotency, by eventId and by the Idempotency-Key. An event found by
        // its eventId with the same canonical request also has the same key (the key's
        // hash is part of it), and a key belongs to one event only: nothing else to look up.
        if let e = state.event { return Resolution.answer(c, toStored: e) }

        // 3. First-open immutability.
        if r.firstOpen, let firstId = instance?.firstOpenId, let first = try tx.openEvent(id: firstId) {
            return .replay(stored: first.storedResponse, receipt: nil)
        }

        // 4. Exact: handoff (bound here when the answer is a live match), then app link.
        var match = c.appLink
        var stored = c.expectedStored
        var receipt = c.expectedReceipt  // follows `match`: reset wherever the match is replaced
        switch c.handoff {
        case .none:
            break
        case .malformed:
            return .rejected(Resolution.unavailableHandoff, abuse: true)
        case .token(let tokenHash):
            let matchedBy: MatchType = r.platform == .android ? .exactInstallReferrer : .exactHandoff
            if let view = try tx.claimHandoff(
                tokenHash: tokenHash, app: appId, platform: r.platform, now: c.now, linkId: c.appLink?.linkId,
                instance: r.appInstanceId, openId: c.openId)
            {
                match = .handoff(view, matchedBy: matchedBy)
                receipt = nil
            } else {
                // Not bound now: say why, in the contract's order.
                guard let h = try tx.handoff(tokenHash: tokenHash), h.appId == appId, h.platform == r.platform,
                    c.now < h.expiresAt
                else { return .rejected(Resolution.unavailableHandoff, abuse: true) }
                if let owner = h.claimedByInstance, owner != r.appInstanceId {
                    return .rejected(Resolution.unavailableHandoff, abuse: true)
                }
                if let link = c.appLink, h.snapshot.linkId != link.linkId {
                    return .rejected(.handoffMismatch, abuse: false)
                }
                // Bound to this instance already (unbound, it would have been bound above).
                guard h.claimedByInstance != nil else { throw StoreError.conflict(.handoffClaim) }
                if let openId = h.claimedByOpen, let original = try tx.openEvent(id: openId) {
                    // Bound by an event that committed after step 2 read (a concurrent writer,
                    // whose claim this one waited for): if it is this very request, answer as
                    // step 2 would have, receipt included.
                    if let e = try tx.resolutionState(
                        app: appId, instance: r.appInstanceId, eventId: r.eventId,
                        idempotencyKey: c.idempotencyKey, keyHash: c.idempotencyKeyHash
                    ).event {
                        return Resolution.answer(c, toStored: e)
                    }
                    // The binding instance asks again with another event: the same accepted result.
                    return .replay(stored: original.storedResponse, receipt: nil)
                }
                match = .handoff(HandoffView(h), matchedBy: matchedBy)
                receipt = nil
            }
            stored = OpenResponseBody.render(openId: c.openId, firstOpen: r.firstOpen, match: match)
        }

        // 5. Probabilistic.
        var consumedClick: String?
        if match == nil, let plan = c.probabilistic {
            guard let domain = plan.eligibleDomain else { return .rejected(.invalidProbabilisticDomain, abuse: false) }
            let candidates = try tx.probabilisticCandidates(
                app: appId, domain: domain, sourceHash: plan.sourceHash, osVersion: r.osVersion, since: plan.since,
                limit: 2)
            if candidates.count == 1, let click = candidates.first, let link = try tx.link(id: click.linkId),
                link.enabled, let payload = link.mobile, payload.appId == appId
            {
                let dynamic = DynamicValues.filter(click.dynamic, allowed: payload.dynamicKeys)
                match = .current(link, payload: payload, matchedBy: .probabilistic, clickId: click.id, dynamic: dynamic)
                consumedClick = click.id
                receipt = nil
                stored = OpenResponseBody.render(openId: c.openId, firstOpen: r.firstOpen, match: match)
            }
        }

        // The receipt of a match decided here is prepared here, so that it is stored with
        // the event in the same commit and every replay of the event can return it; its
        // signature is made on the loop that answers (decision 0023), not on this one
        // writer thread.
        let unsigned = receipt == nil ? match.map { c.signer.prepare(c, match: $0) } : nil

        // Writes: nothing above has written, save the handoff binding of this match.
        let becomesFirstOpen = r.firstOpen && match != nil && instance?.firstOpenId == nil
        let instanceWrite =
            instance == nil || becomesFirstOpen
            ? AppInstance(
                appId: appId, instanceId: r.appInstanceId, platform: r.platform,
                firstOpenId: becomesFirstOpen ? c.openId : nil, createdAt: instance?.createdAt ?? c.now) : nil
        let event = OpenEvent(
            id: c.openId, appId: appId, appInstanceId: r.appInstanceId, eventId: r.eventId,
            idempotencyKeyHash: c.idempotencyKeyHash, requestHash: c.requestHash, platform: r.platform,
            matchedBy: match?.matchedBy ?? .none, firstOpen: r.firstOpen, sdkVersion: r.sdkVersion,
            linkId: match?.linkId, clickId: match?.clickId, at: c.now, storedResponse: stored,
            receipt: receipt?.jws, receiptExpiresAt: receipt?.expiresAt ?? unsigned?.expiresAt,
            receiptInput: unsigned?.input)
        try tx.insertOpenEvent(event, idempotencyKey: c.idempotencyKey, instance: instanceWrite)
        // The webhooks' outbox, in this transaction: an acknowledged open is never
        // missing from them (decision 0028). Only a live open gets here; its payload is
        // built only when an endpoint wants it.
        try tx.enqueueWebhookEvent(.openCreated, appId: event.appId, linkId: event.linkId) { .openCreated(event) }
        if let id = consumedClick {
            if !(try tx.consumeClick(id: id, openId: c.openId)) { throw StoreError.conflict(.clickConsumed) }
        }
        return .live(stored: stored, receipt: receipt.map { .signed($0.jws) } ?? unsigned.map { .unsigned($0.input) })
    }

    /// Step 2's answer to a request whose eventId or Idempotency-Key names a stored event:
    /// a conflict when the request differs, else the event's answer and its receipt while
    /// it is valid (an SDK whose answer was lost).
    private static func answer(_ c: ResolutionContext, toStored e: OpenEvent) -> Outcome {
        if e.requestHash != c.requestHash { return .rejected(.idempotencyConflict, abuse: false) }
        let receipt =
            e.receipt(validAt: c.now).map(ReceiptBytes.signed)
            ?? e.receiptInput(validAt: c.now).map(ReceiptBytes.unsigned)
        return .replay(stored: e.storedResponse, receipt: receipt)
    }
}
