import Core
import Model

/// Webhook endpoints, their deliveries and attempts (issue 26, decision 0028).
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box tests keep it true to the routes and answers.
extension OpenAPIDocument {
    static let webhookIdParameter = pathParameter(
        "id", ["type": "string", "pattern": idPattern("biq_whk_")], "The webhook endpoint's id.")
    static let deliveryIdParameter = pathParameter(
        "deliveryId", ["type": "string", "pattern": idPattern("msg_")],
        "The delivery's id: its event's webhook-id (msg_ + ULID).")

    static let webhookPaths: JSONValue = [
        "/api/v1/webhooks": [
            "get": operation(
                "webhooks.list", tag: "Webhooks", summary: "List webhook endpoints",
                description: "Ordered by id, paginated; secrets are never shown (secretHint is). Needs webhooks.read.",
                parameters: pageParameters, answer: 200, "A page of endpoints.",
                schema: schemaRef("WebhookEndpointList"),
                errors: .listing),
            "post": operation(
                "webhooks.create", tag: "Webhooks", summary: "Create a webhook endpoint",
                description:
                    "url must be https (http only when the edge runs with BIQLI_EDGE_WEBHOOK_ALLOW_HTTP=on). The answer holds the signing secret (whsec_ + base64 of 32 bytes), shown this once: a replay of the request answers null in its place. At most 50 endpoints (422). \(urlTakenRule) Needs webhooks.write.",
                writes: true, answer: 201, "The endpoint, with its secret.",
                schema: schemaRef("WebhookEndpointWithSecret"),
                body: "WebhookCreate", errors: .creating, more: ["409": [.webhookURLTaken], "422": [.urlBlocked]]),
        ],
        "/api/v1/webhooks/{id}": [
            "get": operation(
                "webhooks.get", tag: "Webhooks", summary: "Get a webhook endpoint",
                description: "With disabledReason when the edge disabled it. Needs webhooks.read.",
                parameters: [webhookIdParameter], answer: 200, "The endpoint.", schema: schemaRef("WebhookEndpoint"),
                errors: .reading),
            "patch": operation(
                "webhooks.update", tag: "Webhooks", summary: "Update a webhook endpoint",
                description:
                    "Merge of the given fields. enabled: true on a disabled endpoint clears its reason and its failures. A new url must be no other endpoint's (409 webhook_url_taken, the rule of webhooks.create). Needs webhooks.write.",
                parameters: [webhookIdParameter], writes: true, answer: 200, "The endpoint.",
                schema: schemaRef("WebhookEndpoint"), body: "WebhookUpdate", errors: .changing,
                more: ["409": [.webhookURLTaken], "422": [.urlBlocked]]),
            "delete": operation(
                "webhooks.delete", tag: "Webhooks", summary: "Delete a webhook endpoint",
                description: "With its deliveries and their attempts. Needs webhooks.write.",
                parameters: [webhookIdParameter], writes: true, answer: 200, "Deleted.",
                schema: schemaRef("DeletedResource"), errors: .deleting),
        ],
        "/api/v1/webhooks/{id}/secret/rotate": [
            "post": operation(
                "webhooks.rotateSecret", tag: "Webhooks", summary: "Rotate an endpoint's signing secret",
                description:
                    "A new secret, shown this once. The previous one keeps signing for overlapSeconds (default 86400, at most 604800; 0 ends it now): meanwhile every delivery carries both signatures. Needs webhooks.write.",
                parameters: [webhookIdParameter], writes: true, answer: 200, "The endpoint, with its new secret.",
                schema: schemaRef("WebhookEndpointWithSecret"), errors: .changing
            ).adding(
                "requestBody", ["required": false, "content": jsonContent(schemaRef("WebhookRotate"))])
        ],
        "/api/v1/webhooks/{id}/test": [
            "post": operation(
                "webhooks.test", tag: "Webhooks", summary: "Send a test event",
                description:
                    "Puts a webhook.test event in the outbox for this endpoint alone, whatever it subscribes to; it is delivered as any other. At most \(WebhookTestLimit.perWindow) test events per endpoint in any \(WebhookTestLimit.windowMilliseconds / 1_000) seconds, the console's test button included, for the whole fleet: then 429 rate_limit_exceeded with Retry-After (seconds until one more fits). Needs webhooks.write.",
                parameters: [webhookIdParameter], writes: true, answer: 202, "The delivery, pending.",
                schema: schemaRef("WebhookDelivery"), errors: .changing
            ).withResponse("429", [.rateLimitExceeded], testLimited)
        ],
        "/api/v1/webhooks/{id}/deliveries": [
            "get": operation(
                "webhooks.deliveries", tag: "Webhooks", summary: "List an endpoint's deliveries",
                description: "Newest first, paginated. Needs webhooks.read.",
                parameters: [webhookIdParameter] + pageParameters, answer: 200, "A page of deliveries.",
                schema: schemaRef("WebhookDeliveryList"), errors: .reading)
        ],
        "/api/v1/webhooks/{id}/deliveries/{deliveryId}": [
            "get": operation(
                "webhooks.delivery", tag: "Webhooks", summary: "Get a delivery and its attempts",
                description:
                    "The payload as sent, and every attempt: time, duration, status, error and the answer's first 1024 bytes. Needs webhooks.read; the payload also needs the scopes that guard what it holds (payloadScopes: analytics.read and links.read for open.created, customers.read and events.read for lead.created and sale.created, links.read for the link events, none for webhook.test): a key without them gets payload null and payloadRedacted true.",
                parameters: [webhookIdParameter, deliveryIdParameter], answer: 200, "The delivery.",
                schema: schemaRef("WebhookDeliveryDetail"), errors: .reading)
        ],
        "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": [
            "post": operation(
                "webhooks.redeliver", tag: "Webhooks", summary: "Deliver again",
                description:
                    "Due now, with a new retry schedule; the same webhook-id and body, so that a receiver that got it drops it. 422 while an attempt is under way. Needs webhooks.write.",
                parameters: [webhookIdParameter, deliveryIdParameter], writes: true, answer: 202,
                "The delivery, pending.", schema: schemaRef("WebhookDelivery"), errors: .changing)
        ],
    ]

    static let urlTakenRule =
        "The url must be no other endpoint's (409 webhook_url_taken, details.endpointId naming it): the same URL is compared normalised (scheme and host in lower case, no default port, no fragment, . and .. segments resolved, escapes of unreserved characters decoded and the others in upper case; the query and a trailing slash count)."
    static let testLimited =
        "the endpoint was sent \(WebhookTestLimit.perWindow) test events in the last \(WebhookTestLimit.windowMilliseconds / 1_000) seconds; Retry-After says when one more fits."

    static let webhookEventNames = WebhookEventType.subscribable.map(\.rawValue)
    static let nullableTime: JSONValue = ["type": ["string", "null"], "format": "date-time", "readOnly": true]

    static func idList(_ prefix: String, _ what: String) -> JSONValue {
        [
            "type": ["array", "null"], "minItems": 1, "maxItems": 100,
            "items": ["type": "string", "pattern": idPattern(prefix)],
            "description": .string("Only the events of these \(what); null for every one."),
        ]
    }

    static let webhookWritable: [(String, JSONValue)] = [
        (
            "url",
            [
                "type": "string", "maxLength": 2048, "pattern": .string(urlPattern(httpsOnly: true)),
                "description":
                    "Where events are POSTed: https (http too on an edge run with BIQLI_EDGE_WEBHOOK_ALLOW_HTTP=on).",
            ]
        ),
        ("description", text(500, nullable: true)),
        (
            "events",
            [
                "type": "array", "minItems": 1, "items": enumeration(webhookEventNames),
                "description": "The event types it receives (webhook.test is sent on request only).",
            ]
        ),
        ("appIds", idList("biq_mapp_", "Mobile Apps")),
        ("linkIds", idList("biq_lnk_", "links")),
        ("enabled", boolean("false: nothing is delivered, events are not queued for it.")),
    ]

    static let webhookEndpointProperties: [(String, JSONValue)] =
        [
            ("id", ["type": "string", "pattern": idPattern("biq_whk_")]),
            ("url", ["type": "string", "description": "https, or http where the edge allows it."]),
        ] + webhookWritable.dropFirst() + [
            ("disabledReason", nullableText), ("disabledAt", nullableTime), ("failingSince", nullableTime),
            ("secretHint", ["type": "string", "description": "whsec_… and the secret's last 4 characters."]),
            ("previousSecretExpiresAt", nullableTime), ("createdAt", timestamp), ("updatedAt", timestamp),
        ]

    static let deliveryProperties: [(String, JSONValue)] = [
        ("id", ["type": "string", "pattern": idPattern("msg_")]), ("endpointId", ["type": "string"]),
        ("type", enumeration(WebhookEventType.allCases.map(\.rawValue))),
        ("state", enumeration(["pending", "delivered", "failed"])), ("attempts", counter),
        ("createdAt", timestamp), ("nextAttemptAt", nullableTime), ("deliveredAt", nullableTime),
        ("lastStatus", ["type": ["integer", "null"]]), ("lastError", nullableText),
    ]

    static let webhookSchemas: JSONValue = [
        "WebhookEndpoint": object(webhookEndpointProperties, required: webhookEndpointProperties.map(\.0)),
        "WebhookEndpointWithSecret": object(
            webhookEndpointProperties + [
                (
                    "secret",
                    [
                        "type": ["string", "null"], "pattern": "^whsec_",
                        "description": "The signing secret, shown this once (null in a replay).",
                    ]
                )
            ], required: webhookEndpointProperties.map(\.0) + ["secret"]),
        "WebhookEndpointList": list(of: "WebhookEndpoint", cursorIs: "the last endpoint's id"),
        "WebhookCreate": object(webhookWritable, required: ["url", "events"]),
        "WebhookUpdate": object(
            webhookWritable, required: nil, description: "JSON merge of the given fields over the stored endpoint."),
        "WebhookRotate": object(
            [("overlapSeconds", ["type": "integer", "minimum": 0, "maximum": 604_800])], required: nil),
        "WebhookDelivery": object(deliveryProperties, required: deliveryProperties.map(\.0)),
        "WebhookDeliveryList": list(of: "WebhookDelivery", cursorIs: "the last delivery's id"),
        "WebhookDeliveryDetail": object(
            deliveryProperties + [
                (
                    "payload",
                    [
                        "description":
                            "The body as sent: {type, timestamp, data}; null when payloadRedacted (the key lacks one of payloadScopes)."
                    ]
                ),
                ("payloadRedacted", boolean("True when the key lacks one of payloadScopes: payload is then null.")),
                (
                    "payloadScopes",
                    [
                        "type": "array", "items": ["type": "string"],
                        "description": "The scopes, beside webhooks.read, a key needs to read this payload.",
                    ]
                ),
                (
                    "attemptList",
                    [
                        "type": "array",
                        "items": record([
                            "number": counter, "at": timestamp, "durationMs": counter,
                            "status": ["type": ["integer", "null"]], "error": nullableText,
                            "answer": ["type": ["string", "null"], "description": "The answer's first 1024 bytes."],
                            "node": ["type": "string"],
                        ]),
                    ]
                ),
            ],
            required: deliveryProperties.map(\.0) + ["payload", "payloadRedacted", "payloadScopes", "attemptList"]),
    ]
}

extension JSONValue {
    /// This operation with the answer of `status`, `codes` described as `meaning` (the API's
    /// error envelope narrowed to them; `Retry-After` on a 429), beside its others.
    fileprivate func withResponse(_ status: String, _ codes: [ManagementErrorCode], _ meaning: String) -> JSONValue {
        guard let members = objectValue else { return self }
        var headers = OpenAPIDocument.standardHeaders
        if status == "429" {
            headers.append(("Retry-After", ["schema": ["type": "string", "pattern": "^[1-9][0-9]*$"]]))
        }
        let answer = OpenAPIDocument.errorAnswer(
            codes: codes.map(\.rawValue), meaning: meaning, envelope: "ApiError", headers: headers)
        return .object(
            members.map { name, value in
                guard name == "responses", let responses = value.objectValue else { return (name, value) }
                var kept = responses.filter { $0.0 != status }
                kept.append((status, answer))
                return (name, .object(kept.sorted { $0.0 < $1.0 }))
            })
    }
}
