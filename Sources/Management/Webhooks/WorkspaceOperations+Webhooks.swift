import Core
import Model
import Store

/// The webhooks' operations for the console (decision 0028), as the API's.
extension WorkspaceOperations {
    /// `POST /api/v1/webhooks/{id}/test`: a `webhook.test` event for endpoint `id` alone;
    /// its delivery, pending.
    public static func sendWebhookTest(endpoint id: String, now: Int64, _ tx: any StoreTransaction) throws
        -> WebhookDelivery
    {
        try refusing {
            let endpoint = try WebhookOperations.existing(id, tx)
            let event = WebhookOperations.testEvent(endpoint, now: now)
            try tx.enqueueWebhookEvent(event, endpointId: endpoint.id)
            guard let delivery = try tx.webhookDelivery(endpointId: endpoint.id, messageId: event.id) else {
                throw ManagementError.internalError
            }
            return delivery
        }
    }
}
