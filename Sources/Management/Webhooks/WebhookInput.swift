import Core
import Model

/// A webhook endpoint as a request states it (create: the whole endpoint; PATCH: the
/// stored endpoint merged with the patch, then read the same way). Decision 0028.
enum WebhookInput {
    /// The most endpoints a workspace may have.
    static let maxEndpoints = 50
    /// The most apps or links one endpoint may filter on.
    static let maxFilterItems = 100
    static let maxDescription = 500
    static let readOnly: Set<String> = [
        "id", "secretHint", "disabledReason", "disabledAt", "previousSecretExpiresAt", "failingSince", "createdAt",
        "updatedAt",
    ]

    static func decode(_ json: JSONValue, existing: WebhookEndpoint?, now: Int64, allowHTTP: Bool)
        throws(ManagementError) -> WebhookEndpoint
    {
        var problems = FieldProblems()
        guard var input = InputObject(json, path: "", problems: &problems) else { throw .invalid(problems.list) }
        let url = input.url("url", kind: allowHTTP ? .web : .https, required: true, problems: &problems)
        let description = input.nullableString("description", maxLength: maxDescription, problems: &problems)
        var types: [WebhookEventType] = []
        switch input.value("events") {
        case .array(let items)? where !items.isEmpty:
            var names: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let name) = item, let type = WebhookEventType(rawValue: name),
                    WebhookEventType.subscribable.contains(type)
                else {
                    problems.add(
                        "events[\(i)]",
                        "must be one of " + WebhookEventType.subscribable.map(\.rawValue).joined(separator: ", "))
                    continue
                }
                names.append(name)
            }
            types = WebhookEventType.subscribable.filter { names.contains($0.rawValue) }
        default:
            problems.add("events", "is required: a non-empty array of event types")
        }
        let appIds = ids(&input, "appIds", prefix: Identifier.mobileAppPrefix, &problems)
        let linkIds = ids(&input, "linkIds", prefix: Identifier.linkPrefix, &problems)
        let enabled = input.bool("enabled", default: true, problems: &problems)
        input.reportUnread(readOnly: readOnly, problems: &problems)
        try problems.check()
        var endpoint =
            existing
            ?? WebhookEndpoint(
                id: Identifier.make(WebhookEndpoint.idPrefix), url: "", eventTypes: [], secret: WebhookSecret.make(),
                createdAt: now, updatedAt: now)
        endpoint.url = url ?? ""
        endpoint.description = description
        endpoint.eventTypes = types
        endpoint.appIds = appIds
        endpoint.linkIds = linkIds
        if enabled && !endpoint.enabled {
            // Enabled again by hand: the failures are forgotten, counting starts afresh.
            endpoint.disabledReason = nil
            endpoint.disabledAt = nil
            endpoint.failingSince = nil
        } else if !enabled && endpoint.enabled {
            endpoint.disabledReason = "Disabled by an operator."
            endpoint.disabledAt = now
        }
        endpoint.enabled = enabled
        endpoint.updatedAt = now
        return endpoint
    }

    /// Null (every one), or 1 to `maxFilterItems` ids of this prefix.
    private static func ids(
        _ input: inout InputObject, _ name: String, prefix: String, _ problems: inout FieldProblems
    ) -> [String]? {
        switch input.value(name) {
        case nil, .null?: return nil
        case .array(let items)?:
            guard !items.isEmpty, items.count <= maxFilterItems else {
                problems.add(name, "must hold 1 to \(maxFilterItems) ids, or be null for every one")
                return nil
            }
            var out: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let id) = item, Identifier.isValid(id, prefix: prefix) else {
                    problems.add("\(name)[\(i)]", "must be an id starting with \(prefix)")
                    continue
                }
                if !out.contains(id) { out.append(id) }
            }
            return out
        default:
            problems.add(name, "must be an array of ids, or null")
            return nil
        }
    }

    /// The writable fields as stored: the base a PATCH is merged into.
    static func writable(_ e: WebhookEndpoint) -> JSONValue {
        .object([
            ("url", .string(e.url)), ("description", .string(orNull: e.description)),
            ("events", .array(e.eventTypes.map { .string($0.rawValue) })),
            ("appIds", e.appIds.map { .array($0.map(JSONValue.string)) } ?? .null),
            ("linkIds", e.linkIds.map { .array($0.map(JSONValue.string)) } ?? .null), ("enabled", .bool(e.enabled)),
        ])
    }
}
