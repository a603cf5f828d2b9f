import Core

/// Schemas of analytics and of the error envelope.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let clickKinds = ["android_redirect", "deep_view", "ios_fallback", "desktop", "preview_bot"]
    static let clickPlatforms = ["ios", "android", "desktop", "bot"]
    static let matchTypes = ["exact_app_link", "exact_install_referrer", "exact_handoff", "probabilistic", "none"]

    static let errorCodes = [
        "invalid_token", "insufficient_scope", "upgrade_required", "quota_exceeded", "resource_not_found",
        "tracking_disabled", "attribution_required", "currency_unavailable", "idempotency_conflict",
        "idempotency_key_required", "invalid_preflight", "origin_required", "hostname_not_configured",
        "origin_not_allowed", "client_click_tracking_disabled", "invalid_click_id", "stripe_account_not_connected",
        "stripe_environment_required", "stripe_attribution_conflict", "stripe_mode_mismatch", "domain_taken",
        "alias_taken", "external_id_taken", "folder_name_taken", "tag_name_taken", "pixel_name_taken",
        "biolink_name_taken", "method_not_allowed", "url_blocked", "dns_verification_failed", "validation_error",
        "rate_limit_exceeded", "internal_server_error", "webhook_url_taken",
    ]

    static let analyticsSchema = record(
        [
            "appId": ["type": "string"],
            "days": ["type": "integer", "minimum": 1, "maximum": 365],
            "since": timestamp,
            "until": timestamp,
            "clicks": record([
                "total": counter,
                "byKind": counters(clickKinds),
                "byPlatform": counters(clickPlatforms),
                "breakdown": [
                    "type": "array",
                    "items": record([
                        "platform": enumeration(clickPlatforms), "kind": enumeration(clickKinds), "count": counter,
                    ]),
                ],
            ]),
            "opens": record([
                "total": counter,
                "firstOpens": counter,
                "byMatchType": counters(matchTypes),
                "breakdown": [
                    "type": "array",
                    "items": record([
                        "matchedBy": enumeration(matchTypes), "firstOpen": ["type": "boolean"], "count": counter,
                    ]),
                ],
            ]),
            "recentEvents": [
                "type": "array", "maxItems": 50, "description": "Newest first.",
                "items": record([
                    "id": ["type": "string", "pattern": "^biq_open_"],
                    "matchedBy": enumeration(matchTypes),
                    "confidence": enumeration(["exact", "probabilistic", "none"]),
                    "firstOpen": ["type": "boolean"],
                    "platform": enumeration(["ios", "android"]),
                    "sdkVersion": ["type": "string"],
                    "linkId": ["type": ["string", "null"]],
                    "at": timestamp,
                ]),
            ],
        ],
        description:
            "Clicks by platform and kind, opens by matchedBy and firstOpen, and the most recent opens, for the last `days` days."
    )

    static let errorSchema = record(
        [
            "error": record(
                [
                    "code": ["type": "string", "enum": .array(errorCodes.map(JSONValue.string))],
                    "message": ["type": "string"],
                    "details": [
                        "type": "object", "additionalProperties": true,
                        "description":
                            "validation_error and url_blocked: {field, rule, errors:[{field, rule}]}, the first broken rule and all of them; field is the JSON path (ios.teamId, mobile.metadata.email) or the query parameter or header.",
                    ],
                ], optional: ["details"]),
            "request_id": ["type": "string", "description": "Also in the X-Biq-Request-Id header."],
        ],
        description: "The standard error envelope of the seed's ApiError.")

    static let otherSchemas: JSONValue = ["AppAnalytics": analyticsSchema, "ApiError": errorSchema]
}
