/// What a workspace secret key may do (issue 25). A key made before scopes existed, or
/// without `--scope`, holds every power (`SecretKeyRecord.scopes` nil); a scoped key
/// holds exactly the scopes it was given, and a request that needs another one is
/// refused with 403 `insufficient_scope`.
public enum KeyScope: String, Sendable, Equatable, CaseIterable, Comparable {
    case domainsRead = "domains.read"
    case domainsWrite = "domains.write"
    case mobileAppsRead = "mobile_apps.read"
    case mobileAppsWrite = "mobile_apps.write"
    case linksRead = "links.read"
    case linksWrite = "links.write"
    /// Analytics of links and Mobile Apps.
    case analyticsRead = "analytics.read"
    /// `POST /api/v1/track/lead` and `/api/v1/track/sale` (the server SDK's calls).
    case conversionsCreate = "conversions.create"
    /// `GET /api/v1/customers`, `GET /api/v1/customers/{externalId}`.
    case customersRead = "customers.read"
    /// `DELETE /api/v1/customers/{externalId}` (erasure).
    case customersWrite = "customers.write"
    /// `GET /api/v1/events`: leads and sales.
    case eventsRead = "events.read"
    /// `GET /api/v1/client-click-tracking` and `/api/v1/browser-keys` (decision 0027).
    case clientClicksRead = "client_clicks.read"
    /// Their changes: the settings, new browser keys, revocations.
    case clientClicksWrite = "client_clicks.write"
    /// `GET /api/v1/webhooks...`: endpoints (never their secrets), deliveries, attempts.
    case webhooksRead = "webhooks.read"
    /// Creating, changing, deleting webhook endpoints, rotating secrets, redeliveries, tests.
    case webhooksWrite = "webhooks.write"
    /// `GET /api/v1/in-app-escapes`: the workspace's switches of the in-app escapes (decision 0033).
    case inAppEscapesRead = "in_app_escapes.read"
    /// `PATCH /api/v1/in-app-escapes`.
    case inAppEscapesWrite = "in_app_escapes.write"

    public static func < (a: KeyScope, b: KeyScope) -> Bool { a.rawValue < b.rawValue }

    /// The scopes of a stored or typed list: names separated by spaces or commas.
    /// Nil when one of them is not a scope (`unknown` gets its name).
    public static func parse(_ text: String, unknown: inout String?) -> [KeyScope]? {
        var scopes: [KeyScope] = []
        for name in text.split(whereSeparator: { $0 == " " || $0 == "," }) {
            guard let scope = KeyScope(rawValue: String(name)) else {
                unknown = String(name)
                return nil
            }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        return scopes.sorted()
    }

    /// The stored form: names sorted, separated by one space.
    public static func encode(_ scopes: [KeyScope]) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: " ")
    }
}
