/// Schemas of Mobile Apps and their keys.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let appSchemas = #"""
        {
          "MobileApp": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "id": {"type": "string", "pattern": "^biq_mapp_[0-9A-HJKMNP-TV-Z]{26}$", "readOnly": true},
              "name": {"type": "string", "minLength": 1, "maxLength": 100},
              "enabled": {
                "type": "boolean",
                "description": "false stops new resolutions and store redirects. Default true."
              },
              "iconUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "pattern": "^https://",
                "description": "Shown on the Deep View."
              },
              "ios": {"oneOf": [{"$ref": "#/components/schemas/IOSPlatform"}, {"type": "null"}]},
              "android": {"oneOf": [{"$ref": "#/components/schemas/AndroidPlatform"}, {"type": "null"}]},
              "domains": {
                "type": "array",
                "maxItems": 100,
                "uniqueItems": true,
                "items": {
                  "type": "string",
                  "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
                },
                "description": "Hostnames of existing domains; the app is listed in their association files."
              },
              "handoffLifetimeSeconds": {
                "type": "integer",
                "minimum": 300,
                "maximum": 604800,
                "description": "Default 86400."
              },
              "keyOverlapSeconds": {
                "type": "integer",
                "minimum": 0,
                "maximum": 2592000,
                "description": "How long a rotated-out publishable key keeps working. Default 604800 (7 days)."
              },
              "publishableKeys": {
                "type": "array",
                "readOnly": true,
                "items": {"$ref": "#/components/schemas/PublishableKeySummary"},
                "description": "The keys that work now (never the keys themselves)."
              },
              "createdAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "updatedAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."}
            },
            "required": [
              "id",
              "name",
              "enabled",
              "iconUrl",
              "ios",
              "android",
              "domains",
              "handoffLifetimeSeconds",
              "keyOverlapSeconds",
              "publishableKeys",
              "createdAt",
              "updatedAt"
            ]
          },
          "MobileAppCreated": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "id": {"type": "string", "pattern": "^biq_mapp_[0-9A-HJKMNP-TV-Z]{26}$", "readOnly": true},
              "publishableKey": {
                "type": ["string", "null"],
                "pattern": "^biqli_mobile_pk_",
                "description": "The app's first publishable key, shown this once (null in an idempotent replay)."
              },
              "name": {"type": "string", "minLength": 1, "maxLength": 100},
              "enabled": {
                "type": "boolean",
                "description": "false stops new resolutions and store redirects. Default true."
              },
              "iconUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "pattern": "^https://",
                "description": "Shown on the Deep View."
              },
              "ios": {"oneOf": [{"$ref": "#/components/schemas/IOSPlatform"}, {"type": "null"}]},
              "android": {"oneOf": [{"$ref": "#/components/schemas/AndroidPlatform"}, {"type": "null"}]},
              "domains": {
                "type": "array",
                "maxItems": 100,
                "uniqueItems": true,
                "items": {
                  "type": "string",
                  "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
                },
                "description": "Hostnames of existing domains; the app is listed in their association files."
              },
              "handoffLifetimeSeconds": {
                "type": "integer",
                "minimum": 300,
                "maximum": 604800,
                "description": "Default 86400."
              },
              "keyOverlapSeconds": {
                "type": "integer",
                "minimum": 0,
                "maximum": 2592000,
                "description": "How long a rotated-out publishable key keeps working. Default 604800 (7 days)."
              },
              "publishableKeys": {
                "type": "array",
                "readOnly": true,
                "items": {"$ref": "#/components/schemas/PublishableKeySummary"},
                "description": "The keys that work now (never the keys themselves)."
              },
              "createdAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "updatedAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."}
            },
            "required": [
              "id",
              "publishableKey",
              "name",
              "enabled",
              "iconUrl",
              "ios",
              "android",
              "domains",
              "handoffLifetimeSeconds",
              "keyOverlapSeconds",
              "publishableKeys",
              "createdAt",
              "updatedAt"
            ]
          },
          "MobileAppCreate": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "name": {"type": "string", "minLength": 1, "maxLength": 100},
              "enabled": {
                "type": "boolean",
                "description": "false stops new resolutions and store redirects. Default true."
              },
              "iconUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "pattern": "^https://",
                "description": "Shown on the Deep View."
              },
              "ios": {"oneOf": [{"$ref": "#/components/schemas/IOSPlatformInput"}, {"type": "null"}]},
              "android": {"oneOf": [{"$ref": "#/components/schemas/AndroidPlatformInput"}, {"type": "null"}]},
              "domains": {
                "type": "array",
                "maxItems": 100,
                "uniqueItems": true,
                "items": {
                  "type": "string",
                  "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
                },
                "description": "Hostnames of existing domains; the app is listed in their association files."
              },
              "handoffLifetimeSeconds": {
                "type": "integer",
                "minimum": 300,
                "maximum": 604800,
                "description": "Default 86400."
              },
              "keyOverlapSeconds": {
                "type": "integer",
                "minimum": 0,
                "maximum": 2592000,
                "description": "How long a rotated-out publishable key keeps working. Default 604800 (7 days)."
              }
            },
            "required": ["name"],
            "description": "At least one of ios and android."
          },
          "MobileAppUpdate": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "name": {"type": "string", "minLength": 1, "maxLength": 100},
              "enabled": {
                "type": "boolean",
                "description": "false stops new resolutions and store redirects. Default true."
              },
              "iconUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "pattern": "^https://",
                "description": "Shown on the Deep View."
              },
              "ios": {"oneOf": [{"$ref": "#/components/schemas/IOSPlatformPatch"}, {"type": "null"}]},
              "android": {"oneOf": [{"$ref": "#/components/schemas/AndroidPlatformPatch"}, {"type": "null"}]},
              "domains": {
                "type": "array",
                "maxItems": 100,
                "uniqueItems": true,
                "items": {
                  "type": "string",
                  "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
                },
                "description": "Hostnames of existing domains; the app is listed in their association files."
              },
              "handoffLifetimeSeconds": {
                "type": "integer",
                "minimum": 300,
                "maximum": 604800,
                "description": "Default 86400."
              },
              "keyOverlapSeconds": {
                "type": "integer",
                "minimum": 0,
                "maximum": 2592000,
                "description": "How long a rotated-out publishable key keeps working. Default 604800 (7 days)."
              }
            },
            "description": "Given fields replace the stored ones; ios and android are merged one level deep; null clears."
          },
          "PublishableKeySummary": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "id": {"type": "string", "pattern": "^pk_"},
              "hint": {"type": "string", "description": "The key's last four characters."},
              "createdAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "expiresAt": {
                "type": ["string", "null"],
                "format": "date-time",
                "readOnly": true,
                "description": "Set when the key was rotated out: it works until then."
              }
            },
            "required": ["id", "hint", "createdAt", "expiresAt"]
          },
          "KeyRotation": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "publishableKey": {
                "type": ["string", "null"],
                "pattern": "^biqli_mobile_pk_",
                "description": "The new key, shown this once (null in an idempotent replay)."
              },
              "appId": {"type": "string", "pattern": "^biq_mapp_[0-9A-HJKMNP-TV-Z]{26}$"},
              "publishableKeyId": {"type": "string", "pattern": "^pk_"},
              "hint": {"type": "string"},
              "previousKeyExpiresAt": {
                "type": ["string", "null"],
                "format": "date-time",
                "readOnly": true,
                "description": "Until when the previous key keeps working (now + keyOverlapSeconds); null when there was none."
              }
            },
            "required": ["publishableKey", "appId", "publishableKeyId", "hint", "previousKeyExpiresAt"]
          },
          "MobileAppList": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "data": {"type": "array", "items": {"$ref": "#/components/schemas/MobileApp"}},
              "nextCursor": {
                "type": ["string", "null"],
                "description": "Pass as cursor to get the next page; null on the last page. (the last app id)"
              }
            },
            "required": ["data", "nextCursor"]
          }
        }
        """#
}
