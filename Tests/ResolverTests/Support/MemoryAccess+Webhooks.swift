import Model
import Store

/// The resolver's tests keep the outbox's events (`MemoryState.webhookEvents`) as if one
/// endpoint took every type: a recorder of what write bodies enqueue. Endpoints,
/// deliveries and the key registry are not kept: their reads and writes fail
/// (`MemoryAccess.notKept`).
extension MemoryAccess {
    func webhookEndpoint(id: String) throws(StoreError) -> WebhookEndpoint? { throw Self.notKept("webhook endpoints") }
    func webhookEndpoints() throws(StoreError) -> [WebhookEndpoint] { throw Self.notKept("webhook endpoints") }
    func webhookDelivery(endpointId: String, messageId: String) throws(StoreError) -> WebhookDelivery? {
        throw Self.notKept("webhook deliveries")
    }
    func webhookDeliveries(endpointId: String, before: String?, limit: Int) throws(StoreError) -> [WebhookDelivery] {
        throw Self.notKept("webhook deliveries")
    }
    func webhookAttempts(endpointId: String, messageId: String) throws(StoreError) -> [WebhookAttempt] {
        throw Self.notKept("webhook deliveries")
    }
    func webhookOutboxDepth() throws(StoreError) -> (pending: Int, oldestCreatedAt: Int64?) {
        (s.webhookEvents.count, s.webhookEvents.first?.at)
    }
    func webhookTestEventTimes(endpointId: String, since: Int64) throws(StoreError) -> [Int64] {
        throw Self.notKept("webhook deliveries")
    }
    func webhookSecretKeyIds() throws(StoreError) -> [String] { throw Self.notKept("webhook keys") }
    func registerWebhookSecretKey(id: String, now: Int64) throws(StoreError) { throw Self.notKept("webhook keys") }
    func registerFirstWebhookSecretKey(id: String, now: Int64) throws(StoreError) -> [String] {
        throw Self.notKept("webhook keys")
    }

    func webhookEventWanted(_ type: WebhookEventType, appId: String?, linkId: String?) throws(StoreError) -> Bool {
        true
    }
    func enqueueWebhookEvent(_ event: WebhookEvent) throws(StoreError) -> Int {
        try mutate { $0.webhookEvents.append(event) }
        return 1
    }
    func enqueueWebhookEvent(_ event: WebhookEvent, endpointId: String) throws(StoreError) {
        try mutate { $0.webhookEvents.append(event) }
    }
    func replaceWebhookBody(messageId: String, body: [UInt8]) throws(StoreError) -> Int {
        var changed = 0
        try mutate { st in
            for i in st.webhookEvents.indices where st.webhookEvents[i].id == messageId {
                st.webhookEvents[i].body = body
                changed += 1
            }
        }
        return changed
    }
    func putWebhookEndpoint(_ endpoint: WebhookEndpoint) throws(StoreError) { throw Self.notKept("webhook endpoints") }
    func deleteWebhookEndpoint(id: String) throws(StoreError) -> Bool { throw Self.notKept("webhook endpoints") }
    func claimWebhookDeliveries(
        owner: String, now: Int64, leaseUntil: Int64, limit: Int, perEndpoint: Int, excluding: Set<String>,
        leaving: (WebhookEndpoint) -> Bool
    ) throws(StoreError) -> [WebhookDelivery] { throw Self.notKept("webhook deliveries") }
    func finishWebhookAttempt(
        _ attempt: WebhookAttempt, owner: String, claimedAttempts: Int, outcome: WebhookAttemptOutcome, now: Int64
    ) throws(StoreError) -> Bool { throw Self.notKept("webhook deliveries") }
    func redeliverWebhook(endpointId: String, messageId: String, now: Int64) throws(StoreError) -> Bool {
        throw Self.notKept("webhook deliveries")
    }
    func releaseWebhookLeases(ownerPrefix: String?) throws(StoreError) { throw Self.notKept("webhook deliveries") }
}
