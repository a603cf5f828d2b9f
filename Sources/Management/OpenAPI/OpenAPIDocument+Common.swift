import Core

/// Shared responses, parameters, headers and the security scheme.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    /// The Request-Id and the Idempotency-Key are stored and echoed, hence the same bounds.
    static let requestKeySchema: JSONValue = [
        "type": "string", "minLength": 8, "maxLength": 100, "pattern": "^[A-Za-z0-9._~-]+$",
    ]

    /// A path parameter; a value outside `schema` names nothing, so it is a 404.
    static func pathParameter(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        [
            "name": .string(name), "in": "path", "required": true, "schema": schema,
            "description": .string(description),
        ]
    }

    /// An integer query parameter, with the one spelling every such parameter takes
    /// (`WholeNumber`): a value that breaks it, or its range, is 400 `validation_error`.
    static func integerQuery(
        _ name: String, minimum: Int, maximum: Int, default fallback: Int, _ description: String = ""
    ) -> JSONValue {
        let rule = "Digits only: no sign, no spaces, no leading zero (`+5`, ` 5` and `05` are refused)."
        return [
            "name": .string(name), "in": "query",
            "description": .string(description.isEmpty ? rule : description + " " + rule),
            "schema": [
                "type": "integer", "minimum": .int(Int64(minimum)), "maximum": .int(Int64(maximum)),
                "default": .int(Int64(fallback)),
            ],
        ]
    }

    static let commonComponents: JSONValue = [
        "responses": OpenAPIErrorResponse.components,
        "parameters": [
            "Limit": integerQuery("limit", minimum: 1, maximum: 100, default: 50, "Items per page."),
            "Cursor": [
                "name": "cursor", "in": "query",
                "description": "The nextCursor of the previous page (not empty: leave cursor out for the first page).",
                "schema": ["type": "string", "minLength": 1, "maxLength": 256],
            ],
            "IdempotencyKey": [
                "name": "Idempotency-Key", "in": "header", "required": false,
                "description":
                    "Optional on writes. The same key with the same body replays the stored answer (Idempotent-Replayed: true); with another body: 409 idempotency_conflict. Only 2xx answers are stored.",
                "schema": requestKeySchema,
            ],
            "RequestId": [
                "name": "X-Biq-Request-Id", "in": "header", "required": false,
                "description":
                    "Echoed in the X-Biq-Request-Id answer header and request_id; generated (req_ + 32 hex) when absent. One that breaks the rule, or comes twice, is 400 validation_error.",
                "schema": requestKeySchema,
            ],
            "Hostname": pathParameter(
                "hostname", hostname(), "The domain."),
            "AppId": pathParameter(
                "id", ["type": "string", "pattern": idPattern("biq_mapp_")], "The Mobile App's id."),
            "LinkId": pathParameter("id", ["type": "string", "pattern": idPattern("biq_lnk_")], "The link's id."),
            "LinkRef": pathParameter(
                "id",
                ["type": "string", "pattern": "^(biq_lnk_[0-7][0-9A-HJKMNP-TV-Z]{25}|ext_[ -~]+)$"],
                "The link's id, or ext_ and its externalId (percent-encoded)."),
        ],
        "headers": [
            "RequestId": [
                "description": "The caller's X-Biq-Request-Id when valid, else req_ + 32 hex digits.",
                "schema": requestKeySchema,
            ],
            "CacheControl": ["description": "Always no-store.", "schema": ["type": "string", "const": "no-store"]],
        ],
        "securitySchemes": [
            "workspaceSecretKey": [
                "type": "http", "scheme": "bearer", "bearerFormat": "biqli_sk_ + 43 base64url characters",
                "description":
                    "A workspace secret key, created with `biqli-edge keys create --name NAME`. Publishable keys (biqli_pk_, biqli_mobile_pk_) are refused with 401 invalid_token.",
            ],
            "browserKey": [
                "type": "http", "scheme": "bearer", "bearerFormat": "biqli_pk_ + 43 base64url characters",
                "description":
                    "A workspace browser key, created with `biqli-edge keys create --browser --name NAME` or POST /api/v1/browser-keys: public (it sits in the page), it grants only track/click.",
            ],
            "mobilePublishableKey": [
                "type": "http", "scheme": "bearer", "bearerFormat": "biqli_mobile_pk_ + 64 base64url characters",
                "description":
                    "A Mobile App's publishable key, shown once when the app is created (or rotated): it resolves the opens of that app only and grants nothing of the workspace API.",
            ],
        ],
    ]
}
