/// Schemas of links and their mobile payload and preview.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let linkSchemas = #"""
        {
          "Link": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "id": {"type": "string", "pattern": "^biq_lnk_[0-9A-HJKMNP-TV-Z]{26}$", "readOnly": true},
              "shortUrl": {"type": "string", "format": "uri", "readOnly": true, "description": "https://<domain>/<key>"},
              "domain": {
                "type": "string",
                "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$",
                "description": "An existing domain."
              },
              "key": {
                "type": "string",
                "pattern": "^[A-Za-z0-9_-]{1,64}$",
                "description": "Unique per domain (409 alias_taken). Reserved first segments are refused: api, m, _biqli, healthz, metrics, ... Generated (7 characters) when omitted at creation."
              },
              "url": {
                "type": "string",
                "format": "uri",
                "maxLength": 2048,
                "description": "Web destination: desktop visitors, and mobile ones when the link is not mobile."
              },
              "enabled": {
                "type": "boolean",
                "description": "A disabled link behaves as unknown and resolves to none. Default true."
              },
              "mobile": {"oneOf": [{"$ref": "#/components/schemas/MobilePayload"}, {"type": "null"}]},
              "preview": {"oneOf": [{"$ref": "#/components/schemas/LinkPreview"}, {"type": "null"}]},
              "createdAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "updatedAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."}
            },
            "required": [
              "id",
              "shortUrl",
              "domain",
              "key",
              "url",
              "enabled",
              "mobile",
              "preview",
              "createdAt",
              "updatedAt"
            ]
          },
          "LinkCreate": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "domain": {
                "type": "string",
                "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$",
                "description": "An existing domain."
              },
              "key": {
                "type": "string",
                "pattern": "^[A-Za-z0-9_-]{1,64}$",
                "description": "Unique per domain (409 alias_taken). Reserved first segments are refused: api, m, _biqli, healthz, metrics, ... Generated (7 characters) when omitted at creation."
              },
              "url": {
                "type": "string",
                "format": "uri",
                "maxLength": 2048,
                "description": "Web destination: desktop visitors, and mobile ones when the link is not mobile."
              },
              "enabled": {
                "type": "boolean",
                "description": "A disabled link behaves as unknown and resolves to none. Default true."
              },
              "mobile": {"oneOf": [{"$ref": "#/components/schemas/MobilePayloadInput"}, {"type": "null"}]},
              "preview": {"oneOf": [{"$ref": "#/components/schemas/LinkPreviewInput"}, {"type": "null"}]}
            },
            "required": ["domain", "url"]
          },
          "LinkUpdate": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "domain": {
                "type": "string",
                "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$",
                "description": "An existing domain."
              },
              "key": {
                "type": "string",
                "pattern": "^[A-Za-z0-9_-]{1,64}$",
                "description": "Unique per domain (409 alias_taken). Reserved first segments are refused: api, m, _biqli, healthz, metrics, ... Generated (7 characters) when omitted at creation."
              },
              "url": {
                "type": "string",
                "format": "uri",
                "maxLength": 2048,
                "description": "Web destination: desktop visitors, and mobile ones when the link is not mobile."
              },
              "enabled": {
                "type": "boolean",
                "description": "A disabled link behaves as unknown and resolves to none. Default true."
              },
              "mobile": {"oneOf": [{"$ref": "#/components/schemas/MobilePayloadPatch"}, {"type": "null"}]},
              "preview": {"oneOf": [{"$ref": "#/components/schemas/LinkPreviewInput"}, {"type": "null"}]}
            },
            "description": "Given fields replace the stored ones; mobile and preview are merged one level deep (metadata and dynamicKeys are replaced whole); null clears."
          },
          "MobilePayload": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "appId": {"type": "string", "maxLength": 64, "description": "An existing Mobile App."},
              "route": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": "^/"},
              "referralCode": {"type": ["string", "null"], "minLength": 1, "maxLength": 128},
              "metadata": {
                "type": "object",
                "maxProperties": 20,
                "additionalProperties": true,
                "description": "Safe metadata: at most 20 top-level keys, 3 levels, 4 KB compact, strings at most 1000 characters, no key naming a sensitive field (password, secret, token, auth, cookie, card, email, phone, health, session, credential, passport, iban...; pin, dob, ssn, cvv as words). Default {}."
              },
              "dynamicKeys": {
                "type": "array",
                "maxItems": 20,
                "uniqueItems": true,
                "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,39}$"}
              },
              "deepView": {"type": "boolean", "description": "The link's Deep View switch. Default true."}
            },
            "required": ["appId", "route", "referralCode", "metadata", "dynamicKeys", "deepView"]
          },
          "MobilePayloadInput": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "appId": {"type": "string", "maxLength": 64, "description": "An existing Mobile App."},
              "route": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": "^/"},
              "referralCode": {"type": ["string", "null"], "minLength": 1, "maxLength": 128},
              "metadata": {
                "type": "object",
                "maxProperties": 20,
                "additionalProperties": true,
                "description": "Safe metadata: at most 20 top-level keys, 3 levels, 4 KB compact, strings at most 1000 characters, no key naming a sensitive field (password, secret, token, auth, cookie, card, email, phone, health, session, credential, passport, iban...; pin, dob, ssn, cvv as words). Default {}."
              },
              "dynamicKeys": {
                "type": "array",
                "maxItems": 20,
                "uniqueItems": true,
                "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,39}$"}
              },
              "deepView": {"type": "boolean", "description": "The link's Deep View switch. Default true."}
            },
            "required": ["appId", "route"]
          },
          "MobilePayloadPatch": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "appId": {"type": "string", "maxLength": 64, "description": "An existing Mobile App."},
              "route": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": "^/"},
              "referralCode": {"type": ["string", "null"], "minLength": 1, "maxLength": 128},
              "metadata": {
                "type": "object",
                "maxProperties": 20,
                "additionalProperties": true,
                "description": "Safe metadata: at most 20 top-level keys, 3 levels, 4 KB compact, strings at most 1000 characters, no key naming a sensitive field (password, secret, token, auth, cookie, card, email, phone, health, session, credential, passport, iban...; pin, dob, ssn, cvv as words). Default {}."
              },
              "dynamicKeys": {
                "type": "array",
                "maxItems": 20,
                "uniqueItems": true,
                "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,39}$"}
              },
              "deepView": {"type": "boolean", "description": "The link's Deep View switch. Default true."}
            }
          },
          "LinkPreview": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "title": {"type": ["string", "null"], "minLength": 1, "maxLength": 300},
              "description": {"type": ["string", "null"], "minLength": 1, "maxLength": 1000},
              "imageUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "pattern": "^https://",
                "description": "Absolute https URL: it is shown inside pages. Other schemes: 422 url_blocked."
              }
            },
            "required": ["title", "description", "imageUrl"]
          },
          "LinkPreviewInput": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "title": {"type": ["string", "null"], "minLength": 1, "maxLength": 300},
              "description": {"type": ["string", "null"], "minLength": 1, "maxLength": 1000},
              "imageUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "pattern": "^https://",
                "description": "Absolute https URL: it is shown inside pages. Other schemes: 422 url_blocked."
              }
            }
          },
          "LinkList": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "data": {"type": "array", "items": {"$ref": "#/components/schemas/Link"}},
              "nextCursor": {
                "type": ["string", "null"],
                "description": "Pass as cursor to get the next page; null on the last page. (the last link id)"
              }
            },
            "required": ["data", "nextCursor"]
          }
        }
        """#
}
