import Store

/// The body that runs on the store's writer, inside its own savepoint of a
/// group-commit batch: steps 2-6 of the contract's matching order plus the
/// first-open bookkeeping, so that the open event, the handoff binding, the
/// consumed click, the instance state and the stored response commit together.
///
/// Every check comes before the first write, so a refusal returns an outcome
/// with nothing written. A write that fails afterwards throws, which rolls the
/// savepoint back; a `.conflict` there (another writer won a race this body
/// could not see, e.g. on a multi-process backend) makes the resolver run the
/// body once more, when it will see the winner and answer a replay or a refusal.
enum Resolution {
    static func run(_ c: ResolutionContext, in tx: any StoreTransaction) throws(StoreError) -> Outcome {
        let r = c.request
        let appId = c.app.id

        // 1 (last part). The instance's platform.
        let instance = try tx.appInstance(app: appId, instance: r.appInstanceId)
        if let instance, instance.platform != r.platform { return .rejected(.platformMismatch, abuse: false) }

        // 2. Idempotency, by eventId and by the hashed Idempotency-Key.
        let byEvent = try tx.openEvent(app: appId, eventId: r.eventId)
        let byKey = try tx.openEvent(app: appId, idempotencyKeyHash: c.idempotencyKeyHash)
        for e in [byEvent, byKey] {
            if let e, e.requestHash != c.requestHash { return .rejected(.idempotencyConflict, abuse: false) }
        }
        if let e = byEvent ?? byKey { return .replay(stored: e.storedResponse) }

        // 3. First-open immutability.
        if r.firstOpen, let firstId = instance?.firstOpenId, let first = try tx.openEvent(id: firstId) {
            return .replay(stored: first.storedResponse)
        }

        // 4. Exact: handoff, then app link, then their agreement.
        var handoff: Handoff?
        if r.handoffToken != nil {
            guard let hash = c.tokenHash, let h = try tx.handoff(tokenHash: hash), h.appId == appId,
                h.platform == r.platform, c.now < h.expiresAt
            else { return .rejected(.resourceNotFound("The handoff is unknown, expired or unavailable."), abuse: true) }
            if let owner = h.claimedByInstance, owner != r.appInstanceId {
                return .rejected(.resourceNotFound("The handoff is unknown, expired or unavailable."), abuse: true)
            }
            handoff = h
        }
        if let h = handoff, let link = c.appLink, h.snapshot.linkId != link.linkId {
            return .rejected(.handoffMismatch, abuse: false)
        }
        if let h = handoff, h.claimedByInstance != nil, let openId = h.claimedByOpen,
            let original = try tx.openEvent(id: openId)
        {
            // The binding instance asks again: the same accepted result.
            return .replay(stored: original.storedResponse)
        }
        var match: Match? =
            handoff.map { .handoff($0, matchedBy: r.platform == .android ? .exactInstallReferrer : .exactHandoff) }
            ?? c.appLink

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
            }
        }

        // Writes: nothing above has written.
        let stored = OpenResponseBody.render(openId: c.openId, firstOpen: r.firstOpen, match: match)
        if instance == nil {
            try tx.upsertAppInstance(
                AppInstance(appId: appId, instanceId: r.appInstanceId, platform: r.platform, createdAt: c.now))
        }
        try tx.insertOpenEvent(
            OpenEvent(
                id: c.openId, appId: appId, appInstanceId: r.appInstanceId, eventId: r.eventId,
                idempotencyKeyHash: c.idempotencyKeyHash, requestHash: c.requestHash, platform: r.platform,
                matchedBy: match?.matchedBy ?? .none, firstOpen: r.firstOpen, sdkVersion: r.sdkVersion,
                linkId: match?.linkId, clickId: match?.clickId, at: c.now, storedResponse: stored))
        if let h = handoff, h.claimedByInstance == nil {
            let claimed = try tx.claimHandoff(tokenHash: h.tokenHash, instance: r.appInstanceId, openId: c.openId)
            if !claimed { throw StoreError.conflict("handoff_claim") }
        }
        if let id = consumedClick {
            if !(try tx.consumeClick(id: id, openId: c.openId)) { throw StoreError.conflict("click_consumed") }
        }
        if r.firstOpen, match != nil, instance?.firstOpenId == nil {
            try tx.upsertAppInstance(
                AppInstance(
                    appId: appId, instanceId: r.appInstanceId, platform: r.platform, firstOpenId: c.openId,
                    createdAt: instance?.createdAt ?? c.now))
        }
        return .live(stored: stored, match: match)
    }
}
