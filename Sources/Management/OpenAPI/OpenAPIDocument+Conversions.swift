import Core

/// `POST /api/v1/track/lead` and `/api/v1/track/sale`: the server SDK's calls (issue 25,
/// decision 0024), with the SDK's own header rules rather than the rest of the API's.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box tests keep it true to the routes and answers.
extension OpenAPIDocument {
    /// `X-Biq-Request-Id` as the server SDK makes it: `:` allowed, 1 to 100.
    static let conversionRequestIdSchema: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[A-Za-z0-9._:-]+$",
    ]

    /// `Idempotency-Key` (and `eventId`) as the server SDK makes it: 1 to 255 bytes, no
    /// control character.
    static let conversionKeySchema: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": 255, "pattern": #"^[^\u0000-\u001F\u007F]+$"#,
    ]

    static let conversionParameters: [JSONValue] = [
        [
            "name": "X-Biq-Request-Id", "in": "header", "required": false,
            "description":
                "Echoed in the X-Biq-Request-Id answer header and request_id (the SDK sends the same one on every retry of a call); generated when absent. One that breaks the rule is 400 validation_error.",
            "schema": conversionRequestIdSchema,
        ],
        [
            "name": "Idempotency-Key", "in": "header", "required": true,
            "description":
                "Required (400 idempotency_key_required): the SDK sends the caller's key or the body's eventId, the same on every retry. The same request again gets the stored answer (201, Idempotent-Replayed: true); this key or the body's eventId with another request is 409 idempotency_conflict.",
            "schema": conversionKeySchema,
        ],
    ]

    static func conversionOperation(_ type: String, summary: String, description: String) -> JSONValue {
        let headers: JSONValue = [
            "X-Biq-Request-Id": [
                "description": "The caller's when valid, else generated.", "schema": ["type": "string"],
            ],
            "Cache-Control": ref("headers", "CacheControl"),
            "Idempotent-Replayed": replayedHeader.1,
        ]
        let errors: [(String, [ManagementErrorCode], String)] = [
            (
                "400", [.validationError, .idempotencyKeyRequired],
                "the body is not a JSON object (or over 4096 values), a header breaks its rule, or there is no Idempotency-Key."
            ),
            ("401", [.invalidToken], "no workspace secret key (a mobile publishable key is refused here too)."),
            ("403", [.insufficientScope], "the key does not hold conversions.create."),
            ("409", [.idempotencyConflict], "the Idempotency-Key or the eventId was used by another request."),
            (
                "422", [.validationError, .urlBlocked, .invalidClickId, .attributionRequired, .currencyUnavailable],
                "a field breaks its rule (details name it; customerAvatar with a forbidden scheme alone is url_blocked), clickId names no click of this workspace, there is no clickId and the customer has no attributed click, or the currency has no minor unit."
            ),
            (
                "429", [.rateLimitExceeded],
                "too many calls with this key (BIQLI_EDGE_RATE_CONVERSIONS_PER_KEY); retry the same request after Retry-After seconds."
            ),
            ("500", [.internalServerError], "retry the same request (same key and body)."),
        ]
        var responses: [(String, JSONValue)] = [
            (
                "201",
                [
                    "description": "Recorded (or, for the same request again, the stored answer).",
                    "headers": headers, "content": jsonContent(schemaRef(type == "lead" ? "LeadAnswer" : "SaleAnswer")),
                ]
            )
        ]
        for (status, codes, meaning) in errors {
            var headers: [(String, JSONValue)] = [("X-Biq-Request-Id", ["schema": ["type": "string"]])]
            if status == "429" {
                headers.append(("Retry-After", ["schema": ["type": "string", "pattern": "^[1-9][0-9]*$"]]))
            }
            responses.append(
                (
                    status,
                    errorAnswer(codes: codes.map(\.rawValue), meaning: meaning, envelope: "ApiError", headers: headers)
                ))
        }
        responses.append(("413", OpenAPIErrorResponse.contentTooLarge.reference))
        responses.append(("414", OpenAPIErrorResponse.uriTooLong.reference))
        return [
            "operationId": .string("track." + type), "tags": ["Conversions"], "summary": .string(summary),
            "description": .string(description), "parameters": .array(conversionParameters),
            "requestBody": [
                "required": true,
                "content": jsonContent(schemaRef(type == "lead" ? "LeadRequest" : "SaleRequest")),
            ],
            "responses": .object(responses),
        ]
    }

    static let conversionPaths: JSONValue = [
        "/api/v1/track/lead": [
            "post": conversionOperation(
                "lead", summary: "Track a lead",
                description:
                    "What the official server SDK sends (biqli/sdk, base URL https://<edge host>/api): ties the customer (customerExternalId) to the click (clickId, a click of this edge; without it, the customer's attributed click). Durable before the answer. Needs a key with the conversions.create scope."
            )
        ],
        "/api/v1/track/sale": [
            "post": conversionOperation(
                "sale", summary: "Track a sale",
                description:
                    "A sale of the customer, attributed to clickId or else to the customer's click (its lead's). amount is an integer in the currency's minor unit (4999 = 49.99 USD); currency an ISO 4217 code with a minor unit, usd by default. Durable before the answer. Needs a key with the conversions.create scope."
            )
        ],
    ]

    static let conversionMetadata: JSONValue = [
        "oneOf": [
            ["type": "object", "maxProperties": 20, "additionalProperties": true],
            ["type": "array", "maxItems": 0, "description": "[]: an empty object, as PHP encodes it."],
            ["type": "null"],
        ],
        "description":
            "Safe metadata: at most 20 top-level keys, 3 levels, 4 KB compact, strings at most 1000 characters, no key naming a sensitive field.",
    ]

    static func conversionRequest(sale: Bool) -> JSONValue {
        var properties: [(String, JSONValue)] = [
            (
                "clickId",
                [
                    "type": ["string", "null"], "maxLength": 255,
                    "description": "A click of this edge (the bq_id cookie, or the resolver's click.id).",
                ]
            ),
            ("eventId", conversionKeySchema),
            ("eventName", sale ? text(255, nullable: true) : text(255)),
            ("customerExternalId", text(255)),
            ("customerName", text(255, nullable: true)),
            ("customerEmail", text(320, nullable: true)),
            ("customerAvatar", url("The customer's picture.")),
            (
                "occurredAt",
                [
                    "type": ["string", "null"], "format": "date-time",
                    "description": "RFC 3339; within the last 366 days and at most 10 minutes ahead. Default: now.",
                ]
            ),
            ("metadata", conversionMetadata),
        ]
        var required = ["eventId", "customerExternalId"]
        if sale {
            properties += [
                (
                    "amount",
                    [
                        "type": "integer", "minimum": 0, "maximum": .int(ConversionInput.maxAmount),
                        "description":
                            "In the currency's minor unit: 4999 = 49.99 USD. At most 2^53 - 1 (9007199254740991), the largest integer every JSON reader holds exactly: about 90 million USD in Iranian rials (about a million rials to the dollar, two minor digits), the currency that needs the most minor units for a dollar; more in every other. A larger amount is 422 validation_error.",
                    ]
                ),
                (
                    "currency",
                    [
                        "type": ["string", "null"],
                        "description":
                            "ISO 4217, lowercase (usd by default); a code without a minor unit (xxx, xau...) is 422 currency_unavailable.",
                    ]
                ),
                ("paymentProcessor", ["type": ["string", "null"], "description": "Trimmed; custom by default."]),
                ("invoiceId", ["type": ["string", "null"], "description": "Trimmed."]),
            ]
            required.append("amount")
        } else {
            required.append("eventName")
        }
        return [
            "type": "object", "additionalProperties": true, "properties": .object(properties),
            "required": .array(required.map(JSONValue.string)),
            "description": "null means absent for every optional member; members the edge does not know are ignored.",
        ]
    }

    static func conversionAnswer(sale: Bool) -> JSONValue {
        let nullableText: JSONValue = ["type": ["string", "null"]]
        var properties: [(String, JSONValue)] = [
            (
                "event",
                record([
                    "id": ["type": "string", "pattern": .string(sale ? "^biq_sev_" : "^biq_lev_")],
                    "type": ["const": .string(sale ? "sale" : "lead")],
                    "eventId": ["type": "string"], "eventName": ["type": "string"],
                    "occurredAt": ["type": "string", "format": "date-time"],
                    "metadata": ["type": "object", "additionalProperties": true],
                ])
            ),
            ("click", ["oneOf": [record(["id": ["type": "string"]]), ["type": "null"]]]),
            (
                "link",
                ["oneOf": [record(["id": ["type": "string"], "shortUrl": ["type": "string"]]), ["type": "null"]]]
            ),
            (
                "customer",
                record([
                    "id": ["type": "string", "pattern": "^biq_cus_"], "externalId": ["type": "string"],
                    "name": nullableText, "email": nullableText, "avatar": nullableText,
                ])
            ),
        ]
        if sale {
            properties.append(
                (
                    "sale",
                    record([
                        "amount": counter, "currency": ["type": "string"], "paymentProcessor": nullableText,
                        "invoiceId": nullableText,
                    ])
                ))
        } else {
            properties.append(("lead", record(["eventName": ["type": "string"]])))
        }
        properties.append(("request_id", ["type": "string"]))
        return object(properties, required: properties.map(\.0))
    }

    static let conversionSchemas: JSONValue = [
        "LeadRequest": conversionRequest(sale: false),
        "SaleRequest": conversionRequest(sale: true),
        "LeadAnswer": conversionAnswer(sale: false),
        "SaleAnswer": conversionAnswer(sale: true),
    ]
}
