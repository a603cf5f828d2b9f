/// Shared responses, parameters, headers and the security scheme.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let commonComponents = #"""
        {
          "responses": {
            "BadRequest": {
              "description": "validation_error: the request cannot be read (body not a JSON object, over 65536 bytes or 16 levels, repeated keys, Content-Type not JSON, bad query parameter or Idempotency-Key).",
              "headers": {
                "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
              },
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
            },
            "Unauthorized": {
              "description": "invalid_token: missing, unknown or revoked workspace secret key, or a publishable key.",
              "headers": {
                "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                "WWW-Authenticate": {"schema": {"type": "string"}}
              },
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
            },
            "NotFound": {
              "description": "resource_not_found.",
              "headers": {
                "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
              },
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
            },
            "Conflict": {
              "description": "domain_taken, alias_taken or idempotency_conflict.",
              "headers": {
                "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
              },
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
            },
            "Unprocessable": {
              "description": "validation_error (a field breaks a rule; details name the field and the rule) or url_blocked (every broken rule is a URL with a forbidden scheme such as javascript:, data: or file:).",
              "headers": {
                "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
              },
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
            },
            "InternalError": {
              "description": "internal_server_error.",
              "headers": {
                "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
              },
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
            }
          },
          "parameters": {
            "Limit": {
              "name": "limit",
              "in": "query",
              "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 50}
            },
            "Cursor": {
              "name": "cursor",
              "in": "query",
              "description": "The nextCursor of the previous page.",
              "schema": {"type": "string", "maxLength": 256}
            },
            "IdempotencyKey": {
              "name": "Idempotency-Key",
              "in": "header",
              "required": false,
              "description": "Optional on writes. The same key with the same body replays the stored answer (Idempotent-Replayed: true); with another body: 409 idempotency_conflict. Only 2xx answers are stored.",
              "schema": {"type": "string", "minLength": 8, "maxLength": 100, "pattern": "^[A-Za-z0-9._~-]+$"}
            },
            "RequestId": {
              "name": "X-Biq-Request-Id",
              "in": "header",
              "required": false,
              "description": "Echoed when valid; generated (req_ + 32 hex) otherwise.",
              "schema": {"type": "string", "minLength": 8, "maxLength": 100, "pattern": "^[A-Za-z0-9._~-]+$"}
            },
            "Hostname": {"name": "hostname", "in": "path", "required": true, "schema": {"type": "string"}},
            "AppId": {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
            "LinkId": {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}
          },
          "headers": {
            "RequestId": {
              "description": "The caller's X-Biq-Request-Id when valid, else req_ + 32 hex digits.",
              "schema": {"type": "string"}
            },
            "CacheControl": {"description": "Always no-store.", "schema": {"type": "string", "const": "no-store"}}
          },
          "securitySchemes": {
            "workspaceSecretKey": {
              "type": "http",
              "scheme": "bearer",
              "bearerFormat": "biqli_sk_ + 43 base64url characters",
              "description": "A workspace secret key, created with `biqli-edge keys create --name NAME`. Publishable keys (biqli_pk_, biqli_mobile_pk_) are refused with 401 invalid_token."
            }
          }
        }
        """#
}
