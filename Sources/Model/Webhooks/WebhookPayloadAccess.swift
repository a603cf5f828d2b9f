/// Who may read a stored webhook payload through the API (issue 33 item 4).
///
/// A payload copies data that other routes guard with their own scopes: a lead's or sale's
/// holds the customer's name, email and avatar (`/customers`: `customers.read`) and the
/// event (`/events`: `events.read`); a link event the link (`links.read`); an open the app's
/// answer, with its link and attribution (`links.read`, and `analytics.read`: opens are what
/// the analytics count, and no route shows one alone). `webhooks.read` alone shows that a
/// delivery exists and how it went, never what another scope guards: a key that lacks one
/// of these scopes gets the delivery with its payload withheld (redacted whole, so that a
/// field added to a payload later cannot leak), and the scopes that would show it.
public enum WebhookPayloadAccess {
    /// The scopes a key needs, beside `webhooks.read`, to read a payload of `type`.
    public static func requiredScopes(_ type: WebhookEventType) -> [KeyScope] {
        switch type {
        case .openCreated: return [.analyticsRead, .linksRead]
        case .leadCreated, .saleCreated: return [.customersRead, .eventsRead]
        case .linkCreated, .linkUpdated, .linkDeleted: return [.linksRead]
        case .test: return []
        }
    }

    /// Whether a key holding `scopes` (nil: every scope, an unscoped key) reads the payload.
    public static func shows(_ type: WebhookEventType, to scopes: [KeyScope]?) -> Bool {
        guard let scopes else { return true }
        return requiredScopes(type).allSatisfy(scopes.contains)
    }
}
