import Core
import HTTPMessages
import Management
import Model
import Store

extension Console {
    func webhookPage(_ id: String, csrf: String, _ reader: any WebhookReading, sent: WebhookDelivery? = nil) throws
        -> HTTPResponse
    {
        guard let endpoint = try reader.webhookEndpoint(id: id) else { return MessagePage.notFound(csrf: csrf) }
        var rows: [(WebhookDelivery, [WebhookAttempt])] = []
        for d in try reader.webhookDeliveries(endpointId: id, before: nil, limit: WebhookPage.deliveries) {
            rows.append((d, try reader.webhookAttempts(endpointId: id, messageId: d.messageId)))
        }
        return WebhookPage.render(endpoint, deliveries: rows, sent: sent, csrf: csrf)
    }

    /// `POST /console/webhooks/{id}/test`: a `webhook.test` event, then the endpoint's page.
    func testWebhook(_ id: String, _ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        let now = environment.now()
        return write(request, { tx in try WorkspaceOperations.sendWebhookTest(endpoint: id, now: now, tx) }) {
            [self] result, reader in
            switch result {
            case .success(let delivery):
                do {
                    return try webhookPage(id, csrf: csrf, reader, sent: delivery)
                } catch {
                    environment.log.error("console request failed", [("detail", .string("\(error)"))])
                    return MessagePage.failure(csrf: csrf)
                }
            case .failure(.refused(.operation(let refusal))) where refusal.status == 429:
                // The endpoint's test events for the minute are spent (`WebhookTestLimit`).
                return MessagePage.render(
                    status: 429, title: "Not sent", message: refusal.message, csrf: csrf,
                    back: (ConsolePaths.webhook(id), "Back to the endpoint"),
                    extraHeaders: [("Retry-After", String(refusal.retryAfterSeconds ?? 60))])
            case .failure(let error):
                return failure(error, csrf: csrf)
            }
        }
    }
}
