import Model

/// The reads of the webhooks' tables (decision 0028). Part of every `StoreReader`.
public protocol WebhookReading: AnyObject {
    func webhookEndpoint(id: String) throws(StoreError) -> WebhookEndpoint?
    /// Every endpoint, by id (a workspace has few).
    func webhookEndpoints() throws(StoreError) -> [WebhookEndpoint]
    func webhookDelivery(endpointId: String, messageId: String) throws(StoreError) -> WebhookDelivery?
    /// The endpoint's deliveries, newest first (by message id, a ULID), before `before`
    /// (the previous page's last message id).
    func webhookDeliveries(endpointId: String, before: String?, limit: Int) throws(StoreError) -> [WebhookDelivery]
    /// A delivery's attempts, first first.
    func webhookAttempts(endpointId: String, messageId: String) throws(StoreError) -> [WebhookAttempt]
    /// The outbox's pending deliveries and the creation time of the oldest (`/metrics`).
    func webhookOutboxDepth() throws(StoreError) -> (pending: Int, oldestCreatedAt: Int64?)
    /// The creation times of endpoint `endpointId`'s `webhook.test` events made at or after
    /// `since` (`WebhookTestLimit`), through their partial index: a few entries.
    func webhookTestEventTimes(endpointId: String, since: Int64) throws(StoreError) -> [Int64]
    /// The ids of the keys registered as sealing the signing secrets (decision 0031), oldest
    /// first; empty before the first seal.
    func webhookSecretKeyIds() throws(StoreError) -> [String]
}

/// What a delivery thread learned from one attempt, to write with it.
public enum WebhookAttemptOutcome: Sendable, Equatable {
    case delivered
    /// Tried again at this time.
    case retry(at: Int64)
    /// Given up (the schedule's end, or the endpoint gone).
    case failed
}

/// The writes of the webhooks' tables, inside a write body.
public protocol WebhookWriting: WebhookReading {
    /// Whether an enabled endpoint may want an event of `type` about `appId` and `linkId`:
    /// false only when none does (the endpoints are read once per batch: `WebhookAudience`).
    func webhookEventWanted(_ type: WebhookEventType, appId: String?, linkId: String?) throws(StoreError) -> Bool
    /// One outbox row per enabled endpoint that subscribes to the event's type and whose
    /// filters match its app and link: one statement, in the caller's transaction, skipped
    /// when `webhookEventWanted` says no endpoint wants it. Returns how many rows were written.
    @discardableResult
    func enqueueWebhookEvent(_ event: WebhookEvent) throws(StoreError) -> Int
    /// The event for endpoint `endpointId` only, whatever it subscribes to (`webhook.test`).
    func enqueueWebhookEvent(_ event: WebhookEvent, endpointId: String) throws(StoreError)
    /// Replaces the payload of event `messageId` in every endpoint's delivery of it, whatever
    /// the delivery's state (a customer's erasure): a pending one sends the new body from
    /// its next attempt on, signed then as always. A look-up of the outbox's key per
    /// endpoint. Returns how many deliveries changed.
    @discardableResult
    func replaceWebhookBody(messageId: String, body: [UInt8]) throws(StoreError) -> Int
    /// Inserts or replaces the endpoint.
    func putWebhookEndpoint(_ endpoint: WebhookEndpoint) throws(StoreError)
    /// Registers key `id` as sealing signing secrets (nothing when it already is).
    func registerWebhookSecretKey(id: String, now: Int64) throws(StoreError)
    /// Registers key `id` only when no key is registered yet (a new store's first key; two
    /// nodes of a fleet starting at once register one of theirs, under a lock); returns the
    /// registry as it then is.
    func registerFirstWebhookSecretKey(id: String, now: Int64) throws(StoreError) -> [String]
    /// Deletes the endpoint with its deliveries and attempts; false when there was none.
    func deleteWebhookEndpoint(id: String) throws(StoreError) -> Bool
    /// Leases to `owner` until `leaseUntil` the oldest due deliveries of enabled endpoints
    /// not leased to anyone, at most `limit`, at most `perEndpoint` of one endpoint, none of
    /// the endpoints in `excluding` (those this node's threads are busy with already:
    /// `WebhookClaimPlan`). On PostgreSQL other nodes' claims are skipped, not waited for
    /// (`FOR UPDATE SKIP LOCKED`). Nor of the endpoints `leaving` says this node cannot
    /// serve (their signing secrets sealed with a key it does not hold: decision 0031),
    /// which it is asked of as the endpoints are read.
    func claimWebhookDeliveries(
        owner: String, now: Int64, leaseUntil: Int64, limit: Int, perEndpoint: Int, excluding: Set<String>,
        leaving: (WebhookEndpoint) -> Bool
    ) throws(StoreError) -> [WebhookDelivery]
    /// Writes an attempt of a delivery claimed by `owner` when it made `claimedAttempts`
    /// attempts, with its outcome, and the endpoint's health: false (nothing written)
    /// when the lease is no longer this claim's. A failure that disables the endpoint
    /// (failing for `WebhookRetrySchedule.disableAfter`) fails its pending deliveries.
    func finishWebhookAttempt(
        _ attempt: WebhookAttempt, owner: String, claimedAttempts: Int, outcome: WebhookAttemptOutcome, now: Int64
    ) throws(StoreError) -> Bool
    /// A delivered or failed delivery (or a pending one) due again now, with a new schedule.
    func redeliverWebhook(endpointId: String, messageId: String, now: Int64) throws(StoreError) -> Bool
    /// Releases the leases of `owner`'s prefix (`nil`: every lease): one process serves a
    /// SQLite file, so its leases at start-up are a dead process's.
    func releaseWebhookLeases(ownerPrefix: String?) throws(StoreError)
}

extension WebhookWriting {
    /// A claim that leaves no endpoint out but `excluding` and the disabled ones.
    public func claimWebhookDeliveries(
        owner: String, now: Int64, leaseUntil: Int64, limit: Int, perEndpoint: Int, excluding: Set<String>
    ) throws(StoreError) -> [WebhookDelivery] {
        try claimWebhookDeliveries(
            owner: owner, now: now, leaseUntil: leaseUntil, limit: limit, perEndpoint: perEndpoint,
            excluding: excluding, leaving: { _ in false })
    }
}

extension WebhookAttemptOutcome {
    /// Why an endpoint was disabled by its failures.
    public static let disabledReason = "Every attempt failed for 5 days in a row."

    /// The outbox's `state` and `next_attempt_at`.
    static func columns(_ outcome: WebhookAttemptOutcome) -> (String, Int64?) {
        switch outcome {
        case .delivered: return (WebhookDelivery.State.delivered.rawValue, nil)
        case .retry(let at): return (WebhookDelivery.State.pending.rawValue, at)
        case .failed: return (WebhookDelivery.State.failed.rawValue, nil)
        }
    }
}
