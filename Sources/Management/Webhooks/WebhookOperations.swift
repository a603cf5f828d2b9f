import Core
import Model
import Store

/// `/api/v1/webhooks...` (issue 26, decision 0028): endpoints, their secrets, their
/// deliveries and attempts, redeliveries and test events.
enum WebhookOperations {
    static let routes: [ManagementRoute] = [
        ManagementRoute(
            .get, "/api/v1/webhooks", "webhooks.list", query: ManagementRoutesTable.listQuery, .read(list)),
        ManagementRoute(.post, "/api/v1/webhooks", "webhooks.create", requiresBody: true, .write(create)),
        ManagementRoute(.get, "/api/v1/webhooks/{id}", "webhooks.get", .read(get)),
        ManagementRoute(.patch, "/api/v1/webhooks/{id}", "webhooks.update", requiresBody: true, .write(update)),
        ManagementRoute(.delete, "/api/v1/webhooks/{id}", "webhooks.delete", .write(delete)),
        ManagementRoute(.post, "/api/v1/webhooks/{id}/secret/rotate", "webhooks.rotateSecret", .write(rotate)),
        ManagementRoute(.post, "/api/v1/webhooks/{id}/test", "webhooks.test", .write(test)),
        ManagementRoute(
            .get, "/api/v1/webhooks/{id}/deliveries", "webhooks.deliveries", query: ManagementRoutesTable.listQuery,
            .read(deliveries)),
        ManagementRoute(
            .get, "/api/v1/webhooks/{id}/deliveries/{deliveryId}", "webhooks.delivery", .read(delivery)),
        ManagementRoute(
            .post, "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", "webhooks.redeliver",
            .write(redeliver)),
    ]

    /// How long the previous secret still signs after a rotation, by default and at most.
    static let defaultOverlapSeconds = 86_400
    static let maxOverlapSeconds = 7 * 86_400

    static func list(_ call: ManagementCall, _ reader: any WebhookReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let (items, next) = page.page(try reader.webhookEndpoints(), id: \.id)
        return ManagementAnswer(200, ResourceJSON.page(items.map { WebhookJSON.endpoint($0) }, nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any WebhookReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, WebhookJSON.endpoint(try existing(call.parameter("id"), reader)))
    }

    static func create(_ call: ManagementCall, _ tx: any WebhookWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let endpoint = try WebhookInput.decode(
            call.bodyObject, existing: nil, now: call.now, allowHTTP: env.webhookAllowHTTP)
        let others = try tx.webhookEndpoints()
        if others.count >= WebhookInput.maxEndpoints {
            throw ManagementError.invalid(
                "url", "cannot be added: a workspace has at most \(WebhookInput.maxEndpoints) webhook endpoints")
        }
        try refuseTakenURL(endpoint, among: others)
        try tx.putWebhookEndpoint(try sealed(endpoint, tx, env, now: call.now))
        // The secret is shown this once; a replay of the request gets null in its place.
        return ManagementAnswer(
            201, WebhookJSON.endpoint(endpoint, secret: endpoint.secret),
            replayBody: WebhookJSON.endpoint(endpoint, secret: "").replacing("secret", with: .null))
    }

    static func update(_ call: ManagementCall, _ tx: any WebhookWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let current = try existing(call.parameter("id"), tx)
        let merged = MergePatch.apply(call.body ?? [], to: WebhookInput.writable(current), nested: [])
        let endpoint = try WebhookInput.decode(
            merged, existing: current, now: call.now, allowHTTP: env.webhookAllowHTTP)
        // Only a new URL is compared: two endpoints made alike before the rule stay editable.
        if WebhookURLIdentity.key(endpoint.url) != WebhookURLIdentity.key(current.url) {
            try refuseTakenURL(endpoint, among: try tx.webhookEndpoints())
        }
        try tx.putWebhookEndpoint(endpoint)
        return ManagementAnswer(200, WebhookJSON.endpoint(endpoint))
    }

    static func delete(_ call: ManagementCall, _ tx: any WebhookWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let endpoint = try existing(call.parameter("id"), tx)
        _ = try tx.deleteWebhookEndpoint(id: endpoint.id)
        return ManagementAnswer(200, ResourceJSON.deleted("id", endpoint.id))
    }

    /// A new secret, shown this once; the previous one keeps signing (both signatures are
    /// sent) for `overlapSeconds`.
    static func rotate(_ call: ManagementCall, _ tx: any WebhookWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        var problems = FieldProblems()
        var overlap = defaultOverlapSeconds
        if var input = InputObject(call.bodyObject, path: "", problems: &problems) {
            overlap = input.int(
                "overlapSeconds", default: defaultOverlapSeconds, range: 0...maxOverlapSeconds, unit: "seconds",
                problems: &problems)
            input.reportUnread(problems: &problems)
        }
        try problems.check()
        var endpoint = try existing(call.parameter("id"), tx)
        endpoint.previousSecret = overlap > 0 ? endpoint.secret : nil
        endpoint.previousSecretExpiresAt = overlap > 0 ? call.now + Int64(overlap) * 1_000 : nil
        endpoint.secret = WebhookSecret.make()
        endpoint.updatedAt = call.now
        try tx.putWebhookEndpoint(try sealed(endpoint, tx, env, now: call.now))
        return ManagementAnswer(
            200, WebhookJSON.endpoint(endpoint, secret: endpoint.secret),
            replayBody: WebhookJSON.endpoint(endpoint, secret: "").replacing("secret", with: .null))
    }

    /// A `webhook.test` event to this endpoint alone, whatever it subscribes to (even when
    /// disabled: it is then delivered once the endpoint is enabled again).
    static func test(_ call: ManagementCall, _ tx: any WebhookWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        if let body = call.body, !body.isEmpty {
            throw ManagementError.invalid(body[0].0, "is not a known field (this operation takes no body)")
        }
        return ManagementAnswer(202, WebhookJSON.delivery(try sendTest(call.parameter("id"), now: call.now, tx)))
    }

    /// A `webhook.test` event to endpoint `id`, within `WebhookTestLimit` (the API's and the
    /// console's: one count, in the outbox); its delivery, pending.
    static func sendTest(_ id: String, now: Int64, _ tx: any WebhookWriting) throws -> WebhookDelivery {
        let endpoint = try existing(id, tx)
        let times = try tx.webhookTestEventTimes(
            endpointId: endpoint.id, since: now - WebhookTestLimit.windowMilliseconds)
        if let wait = WebhookTestLimit.retryAfterSeconds(times: times, now: now) {
            throw ManagementError.webhookTestLimited(retryAfterSeconds: wait)
        }
        let event = testEvent(endpoint, now: now)
        try tx.enqueueWebhookEvent(event, endpointId: endpoint.id)
        guard let delivery = try tx.webhookDelivery(endpointId: endpoint.id, messageId: event.id) else {
            throw ManagementError.internalError
        }
        return delivery
    }

    /// 409 `webhook_url_taken` when another endpoint has `endpoint`'s URL (`WebhookURLIdentity`).
    static func refuseTakenURL(_ endpoint: WebhookEndpoint, among endpoints: [WebhookEndpoint]) throws {
        let key = WebhookURLIdentity.key(endpoint.url)
        if let other = endpoints.first(where: { $0.id != endpoint.id && WebhookURLIdentity.key($0.url) == key }) {
            throw ManagementError.webhookURLTaken(endpointId: other.id)
        }
    }

    static func deliveries(_ call: ManagementCall, _ reader: any WebhookReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let endpoint = try existing(call.parameter("id"), reader)
        let rows = try reader.webhookDeliveries(endpointId: endpoint.id, before: page.cursor, limit: page.limit + 1)
        let items = Array(rows.prefix(page.limit))
        let next = rows.count > page.limit ? items.last?.messageId : nil
        return ManagementAnswer(200, ResourceJSON.page(items.map { WebhookJSON.delivery($0) }, nextCursor: next))
    }

    static func delivery(_ call: ManagementCall, _ reader: any WebhookReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let d = try existingDelivery(call, reader)
        let attempts = try reader.webhookAttempts(endpointId: d.endpointId, messageId: d.messageId)
        return ManagementAnswer(200, WebhookJSON.delivery(d, attempts: attempts, scopes: call.keyScopes))
    }

    /// Due again now, with a new schedule; the same `webhook-id` and body.
    static func redeliver(_ call: ManagementCall, _ tx: any WebhookWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        if let body = call.body, !body.isEmpty {
            throw ManagementError.invalid(body[0].0, "is not a known field (this operation takes no body)")
        }
        let d = try existingDelivery(call, tx)
        guard try tx.redeliverWebhook(endpointId: d.endpointId, messageId: d.messageId, now: call.now) else {
            throw ManagementError.invalid("deliveryId", "is being attempted right now; try again in a minute")
        }
        guard let again = try tx.webhookDelivery(endpointId: d.endpointId, messageId: d.messageId) else {
            throw ManagementError.internalError
        }
        return ManagementAnswer(202, WebhookJSON.delivery(again))
    }

    /// `endpoint` as stored: its secrets sealed (decision 0031) when the edge seals them.
    static func sealed(
        _ endpoint: WebhookEndpoint, _ tx: any WebhookWriting, _ env: ManagementEnvironment, now: Int64
    )
        throws -> WebhookEndpoint
    {
        try env.webhookSecrets?.sealed(endpoint, tx, now: now) ?? endpoint
    }

    static func testEvent(_ endpoint: WebhookEndpoint, now: Int64) -> WebhookEvent {
        WebhookEvent(
            type: .test, appId: nil, linkId: nil, at: now,
            data: ["endpointId": .string(endpoint.id), "message": "A test event sent on request."])
    }

    static func existing(_ id: String, _ reader: any WebhookReading) throws -> WebhookEndpoint {
        guard let e = try reader.webhookEndpoint(id: id) else {
            throw ManagementError.notFound("No webhook endpoint \(id).")
        }
        return e
    }

    static func existingDelivery(_ call: ManagementCall, _ reader: any WebhookReading) throws -> WebhookDelivery {
        let endpoint = try existing(call.parameter("id"), reader)
        let id = call.parameter("deliveryId")
        guard let d = try reader.webhookDelivery(endpointId: endpoint.id, messageId: id) else {
            throw ManagementError.notFound("No delivery \(id) of webhook endpoint \(endpoint.id).")
        }
        return d
    }
}

extension JSONValue {
    /// This object with member `name`'s value replaced.
    fileprivate func replacing(_ name: String, with value: JSONValue) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.map { $0.0 == name ? ($0.0, value) : $0 })
    }
}
