import Model

/// The reads of what visits leave: clicks and handoffs.
public protocol VisitReading: AnyObject {
    /// A scan in the SQLite store (no index on click ids, decision 0010): tools and tests only.
    func click(id: String) throws(StoreError) -> Click?
    func handoff(tokenHash: [UInt8]) throws(StoreError) -> Handoff?
}

/// The writes of clicks, handoffs and preview counts (the visit path's), and the
/// resolver's claims on them, inside a write body.
public protocol VisitWriting: VisitReading {
    func insertClick(_ click: Click) throws(StoreError)
    /// Counts a link-preview bot's visit in analytics (kind `.previewBot`) without
    /// storing a click. Nothing is counted without an app (`appId` nil).
    func countPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) throws(StoreError)
    func insertHandoff(_ handoff: Handoff) throws(StoreError)
    /// Binds an unclaimed handoff to an instance; false if another instance already holds it.
    func claimHandoff(tokenHash: [UInt8], instance: String, openId: String) throws(StoreError) -> Bool
    /// The resolver's claim: binds the handoff to `instance` and `openId` when it is
    /// unclaimed, of `app` and `platform`, unexpired at `now` (`now < expiresAt`)
    /// and, when `linkId` is given, of that link; returns it then, its metadata
    /// as the stored JSON text. Nil (and nothing written) otherwise: read it with
    /// `handoff(tokenHash:)` to learn why.
    func claimHandoff(
        tokenHash: [UInt8], app: String, platform: Platform, now: Int64, linkId: String?, instance: String,
        openId: String
    ) throws(StoreError) -> HandoffView?
    /// Marks an iOS click as used by a probabilistic match; false if it already was.
    func consumeClick(id: String, openId: String) throws(StoreError) -> Bool
    /// iOS clicks of `app` on `domain` at or after `since` (at most an hour back),
    /// from `sourceHash`, not yet consumed by a probabilistic match, with `osVersion`
    /// equal when given; newest first, at most `limit`. A transaction's question: the
    /// SQLite store answers it from the writer's memory (decision 0009).
    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click]
}

extension VisitWriting {
    /// Read, check, then `claimHandoff`, for transactions without a one-step claim.
    public func claimHandoff(
        tokenHash: [UInt8], app: String, platform: Platform, now: Int64, linkId: String?, instance: String,
        openId: String
    ) throws(StoreError) -> HandoffView? {
        guard let h = try handoff(tokenHash: tokenHash), h.claimedByInstance == nil, h.appId == app,
            h.platform == platform, now < h.expiresAt, linkId.map({ $0 == h.snapshot.linkId }) ?? true,
            try claimHandoff(tokenHash: tokenHash, instance: instance, openId: openId)
        else { return nil }
        return HandoffView(h)
    }

    /// For transactions that keep no analytics counters: previews go uncounted.
    public func countPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) throws(StoreError) {}
}
