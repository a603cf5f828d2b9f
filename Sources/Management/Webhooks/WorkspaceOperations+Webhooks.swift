import Core
import Model
import Store

/// The webhooks' operations for the console (decision 0028), as the API's.
extension WorkspaceOperations {
    /// `POST /api/v1/webhooks/{id}/test`: a `webhook.test` event for endpoint `id` alone,
    /// within the same limit (`WebhookTestLimit`); its delivery, pending.
    public static func sendWebhookTest(endpoint id: String, now: Int64, _ tx: any WebhookWriting) throws
        -> WebhookDelivery
    {
        try refusing { try WebhookOperations.sendTest(id, now: now, tx) }
    }
}
