/// Schemas of the iOS and Android halves of a Mobile App.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let platformSchemas = #"""
        {
          "IOSPlatform": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "teamId": {"type": "string", "pattern": "^[A-Z0-9]{10}$"},
              "bundleId": {"type": "string", "maxLength": 155, "pattern": "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$"},
              "appStoreId": {"type": ["string", "null"], "pattern": "^[0-9]{1,20}$"},
              "testFlightUrl": {
                "type": ["string", "null"],
                "pattern": "^https://testflight\\.apple\\.com/join/[A-Za-z0-9]{1,32}$"
              },
              "fallbackUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where iOS visitors go when Deep View is off; null: the store."
              },
              "probabilisticFallback": {"type": "boolean", "description": "Default false."},
              "probabilisticWindowMinutes": {
                "type": "integer",
                "minimum": 1,
                "maximum": 60,
                "description": "Default 60."
              },
              "sdkEnabled": {"type": "boolean", "description": "Default true."},
              "webCredentials": {
                "type": "boolean",
                "description": "Adds the app to webcredentials in the AASA. Default false."
              },
              "appClipBundleId": {"type": ["string", "null"], "maxLength": 155}
            },
            "required": [
              "teamId",
              "bundleId",
              "appStoreId",
              "testFlightUrl",
              "fallbackUrl",
              "probabilisticFallback",
              "probabilisticWindowMinutes",
              "sdkEnabled",
              "webCredentials",
              "appClipBundleId"
            ]
          },
          "IOSPlatformInput": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "teamId": {"type": "string", "pattern": "^[A-Z0-9]{10}$"},
              "bundleId": {"type": "string", "maxLength": 155, "pattern": "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$"},
              "appStoreId": {"type": ["string", "null"], "pattern": "^[0-9]{1,20}$"},
              "testFlightUrl": {
                "type": ["string", "null"],
                "pattern": "^https://testflight\\.apple\\.com/join/[A-Za-z0-9]{1,32}$"
              },
              "fallbackUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where iOS visitors go when Deep View is off; null: the store."
              },
              "probabilisticFallback": {"type": "boolean", "description": "Default false."},
              "probabilisticWindowMinutes": {
                "type": "integer",
                "minimum": 1,
                "maximum": 60,
                "description": "Default 60."
              },
              "sdkEnabled": {"type": "boolean", "description": "Default true."},
              "webCredentials": {
                "type": "boolean",
                "description": "Adds the app to webcredentials in the AASA. Default false."
              },
              "appClipBundleId": {"type": ["string", "null"], "maxLength": 155}
            },
            "required": ["teamId", "bundleId"]
          },
          "IOSPlatformPatch": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "teamId": {"type": "string", "pattern": "^[A-Z0-9]{10}$"},
              "bundleId": {"type": "string", "maxLength": 155, "pattern": "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$"},
              "appStoreId": {"type": ["string", "null"], "pattern": "^[0-9]{1,20}$"},
              "testFlightUrl": {
                "type": ["string", "null"],
                "pattern": "^https://testflight\\.apple\\.com/join/[A-Za-z0-9]{1,32}$"
              },
              "fallbackUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where iOS visitors go when Deep View is off; null: the store."
              },
              "probabilisticFallback": {"type": "boolean", "description": "Default false."},
              "probabilisticWindowMinutes": {
                "type": "integer",
                "minimum": 1,
                "maximum": 60,
                "description": "Default 60."
              },
              "sdkEnabled": {"type": "boolean", "description": "Default true."},
              "webCredentials": {
                "type": "boolean",
                "description": "Adds the app to webcredentials in the AASA. Default false."
              },
              "appClipBundleId": {"type": ["string", "null"], "maxLength": 155}
            }
          },
          "AndroidPlatform": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "packageName": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[a-zA-Z][a-zA-Z0-9_]*(\\.[a-zA-Z][a-zA-Z0-9_]*)+$"
              },
              "sha256CertFingerprints": {
                "type": "array",
                "maxItems": 16,
                "items": {"type": "string", "pattern": "^([0-9A-F]{2}:){31}[0-9A-F]{2}$"},
                "description": "SHA-256 signing-certificate fingerprints in any common spelling (colons or not, any case, keytool's 'SHA256:' label); stored and returned upper-case colon-separated."
              },
              "playStoreUrl": {
                "type": ["string", "null"],
                "pattern": "^https://play\\.google\\.com/store/apps/details",
                "description": "Operator Play URL for this package; its referrer must leave room for the handoff token. null: the default Play URL."
              },
              "fallbackUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Absolute http or https URL (stored normalised). Other schemes are refused with 422 url_blocked."
              },
              "sdkEnabled": {"type": "boolean", "description": "Default true."}
            },
            "required": ["packageName", "sha256CertFingerprints", "playStoreUrl", "fallbackUrl", "sdkEnabled"]
          },
          "AndroidPlatformInput": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "packageName": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[a-zA-Z][a-zA-Z0-9_]*(\\.[a-zA-Z][a-zA-Z0-9_]*)+$"
              },
              "sha256CertFingerprints": {
                "type": "array",
                "maxItems": 16,
                "items": {"type": "string"},
                "description": "SHA-256 signing-certificate fingerprints in any common spelling (colons or not, any case, keytool's 'SHA256:' label); stored and returned upper-case colon-separated."
              },
              "playStoreUrl": {
                "type": ["string", "null"],
                "pattern": "^https://play\\.google\\.com/store/apps/details",
                "description": "Operator Play URL for this package; its referrer must leave room for the handoff token. null: the default Play URL."
              },
              "fallbackUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Absolute http or https URL (stored normalised). Other schemes are refused with 422 url_blocked."
              },
              "sdkEnabled": {"type": "boolean", "description": "Default true."}
            },
            "required": ["packageName"]
          },
          "AndroidPlatformPatch": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "packageName": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[a-zA-Z][a-zA-Z0-9_]*(\\.[a-zA-Z][a-zA-Z0-9_]*)+$"
              },
              "sha256CertFingerprints": {
                "type": "array",
                "maxItems": 16,
                "items": {"type": "string"},
                "description": "SHA-256 signing-certificate fingerprints in any common spelling (colons or not, any case, keytool's 'SHA256:' label); stored and returned upper-case colon-separated."
              },
              "playStoreUrl": {
                "type": ["string", "null"],
                "pattern": "^https://play\\.google\\.com/store/apps/details",
                "description": "Operator Play URL for this package; its referrer must leave room for the handoff token. null: the default Play URL."
              },
              "fallbackUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Absolute http or https URL (stored normalised). Other schemes are refused with 422 url_blocked."
              },
              "sdkEnabled": {"type": "boolean", "description": "Default true."}
            }
          }
        }
        """#
}
