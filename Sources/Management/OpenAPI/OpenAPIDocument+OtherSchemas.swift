import Core

/// Schemas of analytics and of the error envelope.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let clickKinds = [
        "android_redirect", "deep_view", "ios_fallback", "desktop", "preview_bot", "play_intent", "app_intent",
        "in_app_page",
    ]
    static let clickPlatforms = ["ios", "android", "desktop", "bot"]
    static let matchTypes = ["exact_app_link", "exact_install_referrer", "exact_handoff", "probabilistic", "none"]

    /// Every code the workspace API answers (`ManagementErrorCode`), not the seed's
    /// whole enum: 13 of it name products this edge does not have (issue 33 item 12).
    static let errorCodes = ManagementErrorCode.allCases.map(\.rawValue)

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
