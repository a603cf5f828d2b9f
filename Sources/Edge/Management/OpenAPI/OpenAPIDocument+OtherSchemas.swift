/// Schemas of analytics and of the error envelope.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let otherSchemas = #"""
        {
          "AppAnalytics": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "appId": {"type": "string"},
              "days": {"type": "integer", "minimum": 1, "maximum": 365},
              "since": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "until": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "clicks": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                  "total": {"type": "integer", "minimum": 0},
                  "byKind": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                      "android_redirect": {"type": "integer", "minimum": 0},
                      "deep_view": {"type": "integer", "minimum": 0},
                      "ios_fallback": {"type": "integer", "minimum": 0},
                      "desktop": {"type": "integer", "minimum": 0},
                      "preview_bot": {"type": "integer", "minimum": 0}
                    },
                    "required": ["android_redirect", "deep_view", "ios_fallback", "desktop", "preview_bot"]
                  },
                  "byPlatform": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                      "ios": {"type": "integer", "minimum": 0},
                      "android": {"type": "integer", "minimum": 0},
                      "desktop": {"type": "integer", "minimum": 0},
                      "bot": {"type": "integer", "minimum": 0}
                    },
                    "required": ["ios", "android", "desktop", "bot"]
                  },
                  "breakdown": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": false,
                      "properties": {
                        "platform": {"enum": ["ios", "android", "desktop", "bot"]},
                        "kind": {"enum": ["android_redirect", "deep_view", "ios_fallback", "desktop", "preview_bot"]},
                        "count": {"type": "integer", "minimum": 0}
                      },
                      "required": ["platform", "kind", "count"]
                    }
                  }
                },
                "required": ["total", "byKind", "byPlatform", "breakdown"]
              },
              "opens": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                  "total": {"type": "integer", "minimum": 0},
                  "firstOpens": {"type": "integer", "minimum": 0},
                  "byMatchType": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                      "exact_app_link": {"type": "integer", "minimum": 0},
                      "exact_install_referrer": {"type": "integer", "minimum": 0},
                      "exact_handoff": {"type": "integer", "minimum": 0},
                      "probabilistic": {"type": "integer", "minimum": 0},
                      "none": {"type": "integer", "minimum": 0}
                    },
                    "required": ["exact_app_link", "exact_install_referrer", "exact_handoff", "probabilistic", "none"]
                  },
                  "breakdown": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": false,
                      "properties": {
                        "matchedBy": {
                          "enum": ["exact_app_link", "exact_install_referrer", "exact_handoff", "probabilistic", "none"]
                        },
                        "firstOpen": {"type": "boolean"},
                        "count": {"type": "integer", "minimum": 0}
                      },
                      "required": ["matchedBy", "firstOpen", "count"]
                    }
                  }
                },
                "required": ["total", "firstOpens", "byMatchType", "breakdown"]
              },
              "recentEvents": {
                "type": "array",
                "maxItems": 50,
                "description": "Newest first.",
                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "properties": {
                    "id": {"type": "string", "pattern": "^biq_open_"},
                    "matchedBy": {
                      "enum": ["exact_app_link", "exact_install_referrer", "exact_handoff", "probabilistic", "none"]
                    },
                    "confidence": {"enum": ["exact", "probabilistic", "none"]},
                    "firstOpen": {"type": "boolean"},
                    "platform": {"enum": ["ios", "android"]},
                    "sdkVersion": {"type": "string"},
                    "linkId": {"type": ["string", "null"]},
                    "at": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."}
                  },
                  "required": ["id", "matchedBy", "confidence", "firstOpen", "platform", "sdkVersion", "linkId", "at"]
                }
              }
            },
            "required": ["appId", "days", "since", "until", "clicks", "opens", "recentEvents"],
            "description": "Clicks by platform and kind, opens by matchedBy and firstOpen, and the most recent opens, for the last `days` days."
          },
          "ApiError": {
            "type": "object",
            "additionalProperties": false,
            "required": ["error", "request_id"],
            "description": "The standard error envelope of the seed's ApiError.",
            "properties": {
              "error": {
                "type": "object",
                "additionalProperties": false,
                "required": ["code", "message"],
                "properties": {
                  "code": {
                    "type": "string",
                    "enum": [
                      "invalid_token",
                      "insufficient_scope",
                      "upgrade_required",
                      "quota_exceeded",
                      "resource_not_found",
                      "tracking_disabled",
                      "attribution_required",
                      "currency_unavailable",
                      "idempotency_conflict",
                      "idempotency_key_required",
                      "invalid_preflight",
                      "origin_required",
                      "hostname_not_configured",
                      "origin_not_allowed",
                      "client_click_tracking_disabled",
                      "invalid_click_id",
                      "stripe_account_not_connected",
                      "stripe_environment_required",
                      "stripe_attribution_conflict",
                      "stripe_mode_mismatch",
                      "domain_taken",
                      "alias_taken",
                      "external_id_taken",
                      "folder_name_taken",
                      "tag_name_taken",
                      "pixel_name_taken",
                      "biolink_name_taken",
                      "method_not_allowed",
                      "url_blocked",
                      "dns_verification_failed",
                      "validation_error",
                      "rate_limit_exceeded",
                      "internal_server_error"
                    ]
                  },
                  "message": {"type": "string"},
                  "details": {
                    "type": "object",
                    "additionalProperties": true,
                    "description": "validation_error and url_blocked: {field, rule, errors:[{field, rule}]}, the first broken rule and all of them; field is the JSON path (ios.teamId, mobile.metadata.email) or the query parameter or header."
                  }
                }
              },
              "request_id": {"type": "string", "description": "Also in the X-Biq-Request-Id header."}
            }
          }
        }
        """#
}
