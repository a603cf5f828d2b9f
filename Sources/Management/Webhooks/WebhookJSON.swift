import Core
import Model

/// Webhook endpoints, deliveries and attempts as the API shows them. An endpoint's
/// secret is never shown but by the create and rotate answers (`secret`).
enum WebhookJSON {
    static func endpoint(_ e: WebhookEndpoint, secret: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(e.id)), ("url", .string(e.url)), ("description", .string(orNull: e.description)),
            ("events", .array(e.eventTypes.map { .string($0.rawValue) })),
            ("appIds", e.appIds.map { .array($0.map(JSONValue.string)) } ?? .null),
            ("linkIds", e.linkIds.map { .array($0.map(JSONValue.string)) } ?? .null),
            ("enabled", .bool(e.enabled)), ("disabledReason", .string(orNull: e.disabledReason)),
            ("disabledAt", ResourceJSON.time(orNull: e.disabledAt)),
            ("failingSince", ResourceJSON.time(orNull: e.failingSince)),
            ("secretHint", .string(WebhookSecret.hint(e.secret))),
            ("previousSecretExpiresAt", ResourceJSON.time(orNull: e.previousSecretExpiresAt)),
            ("createdAt", ResourceJSON.time(e.createdAt)), ("updatedAt", ResourceJSON.time(e.updatedAt)),
        ]
        if let secret { members.insert(("secret", .string(secret)), at: 2) }
        return .object(members)
    }

    /// With `attempts` (a single delivery's view): its payload too, unless the caller's key
    /// (`scopes`, nil: every scope) lacks a scope that guards what it holds
    /// (`WebhookPayloadAccess`): then `payload` is null and `payloadRedacted` true.
    static func delivery(_ d: WebhookDelivery, attempts: [WebhookAttempt]? = nil, scopes: [KeyScope]? = nil)
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [
            ("id", .string(d.messageId)), ("endpointId", .string(d.endpointId)), ("type", .string(d.type.rawValue)),
            ("state", .string(d.state.rawValue)), ("attempts", .int(Int64(d.attempts))),
            ("createdAt", ResourceJSON.time(d.createdAt)),
            ("nextAttemptAt", ResourceJSON.time(orNull: d.nextAttemptAt)),
            ("deliveredAt", ResourceJSON.time(orNull: d.deliveredAt)),
            ("lastStatus", d.lastStatus.map { .int(Int64($0)) } ?? .null),
            ("lastError", .string(orNull: d.lastError)),
        ]
        if let attempts {
            let shown = WebhookPayloadAccess.shows(d.type, to: scopes)
            members.append(("payload", shown ? (try? JSONParser.parse(d.body)) ?? .null : .null))
            members.append(("payloadRedacted", .bool(!shown)))
            members.append(
                ("payloadScopes", .array(WebhookPayloadAccess.requiredScopes(d.type).map { .string($0.rawValue) })))
            members.append(("attemptList", .array(attempts.map(attempt))))
        }
        return .object(members)
    }

    static func attempt(_ a: WebhookAttempt) -> JSONValue {
        .object([
            ("number", .int(Int64(a.number))), ("at", ResourceJSON.time(a.at)),
            ("durationMs", .int(a.durationMilliseconds)), ("status", a.status.map { .int(Int64($0)) } ?? .null),
            ("error", .string(orNull: a.error)), ("answer", .string(orNull: a.answer)), ("node", .string(a.node)),
        ])
    }
}
