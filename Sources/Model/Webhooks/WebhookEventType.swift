/// What a webhook reports (decision 0028). Adding a type is one case here, and the call
/// that emits it (`WebhookEvent`, inside the write body of the fact it reports).
public enum WebhookEventType: String, Sendable, Equatable, CaseIterable {
    case openCreated = "open.created"
    case leadCreated = "lead.created"
    case saleCreated = "sale.created"
    case linkCreated = "link.created"
    case linkUpdated = "link.updated"
    case linkDeleted = "link.deleted"
    /// Sent on demand to one endpoint (API, console), whatever it subscribes to.
    case test = "webhook.test"

    /// The types an endpoint can subscribe to (`webhook.test` is sent on demand only).
    public static var subscribable: [WebhookEventType] { allCases.filter { $0 != .test } }
}
