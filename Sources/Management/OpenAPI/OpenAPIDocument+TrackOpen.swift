import Core

/// `POST /api/v1/track/open`, the mobile resolver the official SDKs call (the seed's
/// "Resolve a mobile open", `../shared/spec/openapi-track-open.yaml`). `Resolver` answers
/// it, not the workspace API, so it has its own key (the Mobile App's publishable key),
/// envelope (`requestId`) and codes; `ResolverOpenAPITests` (EdgeTests, which sees both
/// modules) holds the codes here equal to `ResolverError`'s.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles.
extension OpenAPIDocument {
    /// The wire codes of each error status of `track/open`; 500 uses the standard
    /// envelope (`request_id`), the others the resolver's (`requestId`).
    static let trackOpenErrors: [(status: String, codes: [String], meaning: String)] = [
        (
            "400", ["invalid_request", "invalid_headers"],
            "the body is not a JSON object of the schema's fields (over 16 KB, deeper than 32 levels, an unknown field), or a required header is missing or breaks its rule."
        ),
        ("401", ["invalid_mobile_key"], "no Mobile App publishable key (biqli_mobile_pk_...), or a revoked one."),
        (
            "403", ["mobile_linking_unavailable", "mobile_sdk_unavailable"],
            "the app is disabled, or its SDK is off for this platform."
        ),
        ("404", ["resource_not_found"], "appId names no Mobile App of this key."),
        ("409", ["idempotency_conflict"], "the eventId or Idempotency-Key was used with another body."),
        (
            "422",
            [
                "validation_error", "platform_not_configured", "header_mismatch", "invalid_probabilistic_domain",
                "platform_mismatch", "handoff_mismatch",
            ],
            "a field breaks its rule, the app has no such platform, a header disagrees with the body, the domain cannot match probabilistically, the instance is of another platform, or the handoff and the deep link name different links."
        ),
        ("429", ["rate_limited"], "retry the identical request after Retry-After seconds."),
        (
            "500", ["internal_server_error"],
            "an unexpected failure, or the store away for a moment (then with Retry-After): retry the identical request."
        ),
    ]

    static var trackOpenOperation: JSONValue {
        let header: (String, JSONValue, String) -> JSONValue = { name, schema, description in
            [
                "name": .string(name), "in": "header", "required": true, "schema": schema,
                "description": .string(description),
            ]
        }
        let retryAfter: JSONValue = [
            "description": "Seconds before retrying.", "schema": ["type": "string", "pattern": "^[1-9][0-9]*$"],
        ]
        var responses: [(String, JSONValue)] = [
            (
                "200",
                [
                    "description": "Resolved; a no-match result is a success too.",
                    "headers": [
                        "X-Biq-Request-Id": ["description": "The caller's.", "schema": ["type": "string"]],
                        "Cache-Control": ref("headers", "CacheControl"),
                    ],
                    "content": jsonContent(schemaRef("MobileOpenResponse")),
                ]
            )
        ]
        for (status, codes, meaning) in trackOpenErrors {
            var headers: [(String, JSONValue)] = [("X-Biq-Request-Id", ["schema": ["type": "string"]])]
            if status == "429" || status == "500" { headers.append(("Retry-After", retryAfter)) }
            responses.append(
                (
                    status,
                    errorAnswer(
                        codes: codes, meaning: meaning, envelope: status == "500" ? "ApiError" : "MobileApiError",
                        headers: headers)
                ))
        }
        responses.append(("413", OpenAPIErrorResponse.contentTooLarge.reference))
        responses.append(("414", OpenAPIErrorResponse.uriTooLong.reference))
        return [
            "operationId": "mobileOpen.resolve", "tags": ["Mobile attribution"], "summary": "Resolve a mobile open",
            "description":
                "What the official iOS and Android SDKs call on an app's first open and on every deep link: resolves a verified installed-app link, an Android Install Referrer handoff, an explicit iOS handoff, or an eligible consented iOS probabilistic match. Takes the Mobile App's publishable key, not a workspace key. Other methods answer 405 method_not_allowed with Allow: POST.",
            "security": [["mobilePublishableKey": []]],
            "parameters": [
                header(
                    "Idempotency-Key", requestKeySchema,
                    "Stable identity of this exact request: reuse it only with the identical body."),
                header("X-Biq-SDK", enumeration(["ios", "android"]), "The platform; equals the body's."),
                header(
                    "X-Biq-SDK-Version", ["type": "string", "minLength": 1, "maxLength": 32],
                    "The SDK's version; equals the body's sdkVersion."),
                header("X-Biq-Request-Id", requestKeySchema, "Echoed in the answer."),
            ],
            "requestBody": [
                "required": true,
                "description": "A JSON object of at most 16 KB and 32 levels; unknown fields are refused.",
                "content": jsonContent(schemaRef("MobileOpenRequest")),
            ],
            "responses": .object(responses),
        ]
    }

    static var trackOpenPaths: JSONValue { ["/api/v1/track/open": ["post": trackOpenOperation]] }

    static let trackOpenSchemas: JSONValue = [
        "MobileOpenRequest": object(
            [
                ("eventId", requestKeySchema),
                ("appId", ["type": "string", "maxLength": 40, "description": "The Mobile App of the bearer key."]),
                (
                    "appInstanceId",
                    [
                        "type": "string", "minLength": 16, "maxLength": 128, "pattern": "^[A-Za-z0-9._~-]+$",
                        "description": "A random stable identifier of this installation.",
                    ]
                ),
                ("platform", enumeration(["ios", "android"])),
                ("firstOpen", ["type": "boolean"]),
                (
                    "probabilisticAllowed",
                    [
                        "type": "boolean",
                        "description": "Only on an eligible iOS first open with a verified attached domain.",
                    ]
                ),
                (
                    "handoffToken",
                    [
                        "type": ["string", "null"], "maxLength": 128,
                        "description": "Opaque and sensitive: never logged.",
                    ]
                ),
                (
                    "deepLink",
                    [
                        "type": ["string", "null"], "format": "uri", "maxLength": 2048,
                        "description": "The installed-app HTTPS short URL that opened the app.",
                    ]
                ),
                (
                    "domain",
                    [
                        "type": ["string", "null"], "maxLength": 255,
                        "description": "The verified attached hostname a probabilistic match needs.",
                    ]
                ),
                ("appVersion", ["type": ["string", "null"], "maxLength": 32]),
                ("osVersion", ["type": ["string", "null"], "maxLength": 32]),
                ("sdkVersion", ["type": "string", "minLength": 1, "maxLength": 32]),
                ("occurredAt", ["type": ["string", "null"], "format": "date-time"]),
                (
                    "attestation",
                    [
                        "description": "Reserved; not enforced.",
                        "anyOf": [
                            ["type": "object", "additionalProperties": true], ["type": "array"], ["type": "null"],
                        ],
                    ]
                ),
            ],
            required: [
                "eventId", "appId", "appInstanceId", "platform", "firstOpen", "probabilisticAllowed", "sdkVersion",
            ]),
        "MobileOpenResponse": record([
            "open": schemaRef("MobileOpen"),
            "click": ["oneOf": [schemaRef("MobileClick"), ["type": "null"]]],
            "link": ["oneOf": [schemaRef("MobileResolvedLink"), ["type": "null"]]],
            "attribution": ["oneOf": [schemaRef("MobileAttribution"), ["type": "null"]]],
            "attributionReceipt": [
                "type": ["string", "null"],
                "description": "A short-lived Ed25519 JWT on a live matched answer (GET /.well-known/jwks.json).",
            ],
            "requestId": ["type": "string", "minLength": 1, "maxLength": 100],
        ]),
        "MobileOpen": record([
            "id": ["type": "string", "pattern": "^biq_open_"],
            "firstOpen": ["type": "boolean"],
            "matchedBy": enumeration(matchTypes),
            "confidence": enumeration(["exact", "probabilistic", "none"]),
        ]),
        "MobileClick": record(["id": ["type": "string"]]),
        "MobileResolvedLink": record([
            "id": ["type": "string", "pattern": "^biq_lnk_"],
            "shortUrl": ["type": "string", "format": "uri"],
            "route": ["type": "string", "minLength": 1, "maxLength": 500, "pattern": "^/"],
        ]),
        "MobileAttribution": record([
            "referralCode": ["type": ["string", "null"], "maxLength": 128],
            "metadata": ["type": "object", "additionalProperties": true],
            "dynamic": [
                "type": "object", "maxProperties": 20,
                "additionalProperties": ["type": "string", "maxLength": 256],
            ],
        ]),
        "MobileApiError": [
            "type": "object", "additionalProperties": false, "required": ["error", "requestId"],
            "description": "The resolver's error envelope: requestId, not request_id.",
            "properties": [
                "error": [
                    "type": "object", "additionalProperties": false, "required": ["code", "message"],
                    "properties": ["code": ["type": "string"], "message": ["type": "string"]],
                ],
                "requestId": ["type": "string"],
            ],
        ],
    ]
}
