import Core
import Model
import Store
import Webhooks

/// The webhooks' delivery threads from the configuration (decision 0028).
enum WebhookWiring {
    static func dispatcher(
        configuration: EdgeConfiguration, store: any Store, signal: WebhookSignal, secrets: WebhookSecretKeeper,
        log: Log
    ) throws(EdgeStartError) -> WebhookDispatcher {
        var settings = WebhookDeliverySettings()
        let c = configuration.webhooks
        settings.threads = c.threads
        settings.timeoutMilliseconds = c.timeoutSeconds * 1_000
        settings.schedule = c.schedule
        settings.allowPrivate = c.allowPrivate
        settings.allowHTTP = c.allowHTTP
        settings.caRootsFile = c.caRoots
        settings.node = configuration.node
        do {
            return try WebhookDispatcher(
                store: store, signal: signal, settings: settings, secrets: secrets,
                userAgent: "biqli-edge-webhooks/" + EdgeCommand.version,
                warn: { message, fields in log.warn(message, fields.map { ($0.0, .string($0.1)) }) })
        } catch {
            throw .io("BIQLI_EDGE_WEBHOOK_CA_ROOTS: \(error)")
        }
    }
}

/// `/metrics` about webhooks: this node's attempts by result and the outbox's depth.
enum WebhookMetrics {
    static func text(_ s: WebhookStatistics.Snapshot?) -> String {
        guard let s else { return "" }
        return """
            # HELP biqli_webhook_attempts_total Webhook attempts this node made, by result: delivered (2xx), retry (failed, tried again later), failed (given up after the schedule or with its endpoint disabled), lost (the outcome could not be recorded under the lease: the delivery is made again).
            # TYPE biqli_webhook_attempts_total counter
            biqli_webhook_attempts_total{result="delivered"} \(s.delivered)
            biqli_webhook_attempts_total{result="retry"} \(s.retried)
            biqli_webhook_attempts_total{result="failed"} \(s.failed)
            biqli_webhook_attempts_total{result="lost"} \(s.lost)
            # HELP biqli_webhook_outbox_pending Deliveries waiting in the outbox (every node's), read every 5 s.
            # TYPE biqli_webhook_outbox_pending gauge
            biqli_webhook_outbox_pending \(s.pending)
            # HELP biqli_webhook_outbox_oldest_pending_age_seconds Age of the oldest pending delivery (0 when none).
            # TYPE biqli_webhook_outbox_oldest_pending_age_seconds gauge
            biqli_webhook_outbox_oldest_pending_age_seconds \(Double(s.oldestPendingAgeMilliseconds) / 1_000)

            """
    }
}
