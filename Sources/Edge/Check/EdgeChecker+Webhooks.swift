import Core
import Model

extension EdgeChecker {
    /// Webhook endpoints the edge disabled (decision 0028), or an operator did: nothing
    /// is delivered to them, and events are not queued for them.
    static func checkWebhooks(_ endpoints: [WebhookEndpoint]) -> [CheckFinding] {
        endpoints.filter { !$0.enabled }.map { e in
            let since = e.disabledAt.map { " since " + Timestamp.format(milliseconds: $0) } ?? ""
            return CheckFinding(
                severity: .warning, code: "webhook_disabled", subject: e.id,
                message:
                    "The webhook endpoint \(e.url) is disabled\(since): \(e.disabledReason ?? "no reason recorded")",
                fix:
                    "Fix the receiver, then enable it: PATCH /api/v1/webhooks/\(e.id) with {\"enabled\":true} (or delete it)."
            )
        }
    }
}
