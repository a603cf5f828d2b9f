/// Schemas of domains and deletions.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let domainSchemas = #"""
        {
          "Domain": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "hostname": {
                "type": "string",
                "maxLength": 253,
                "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$",
                "description": "Lower-case DNS name of at least two labels, not an IP address; punycode for IDNs. The primary key; cannot change."
              },
              "verified": {
                "type": "boolean",
                "description": "The operator asserts ownership (self-hosted: no DNS challenge). Only verified domains take part in exact_app_link and probabilistic matching. Default false."
              },
              "httpsActive": {
                "type": "boolean",
                "readOnly": true,
                "description": "A valid, unexpired certificate for this host is loaded."
              },
              "deepViewEnabled": {
                "type": "boolean",
                "description": "The domain's Deep View switch (the link has the other). Default true."
              },
              "rootUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where / goes; null: the built-in page."
              },
              "notFoundUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where unknown and disabled keys go; null: the built-in 404 page."
              },
              "createdAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."},
              "updatedAt": {"type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC."}
            },
            "required": [
              "hostname",
              "verified",
              "httpsActive",
              "deepViewEnabled",
              "rootUrl",
              "notFoundUrl",
              "createdAt",
              "updatedAt"
            ]
          },
          "DomainCreate": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "hostname": {
                "type": "string",
                "maxLength": 253,
                "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$",
                "description": "Lower-case DNS name of at least two labels, not an IP address; punycode for IDNs. The primary key; cannot change."
              },
              "verified": {
                "type": "boolean",
                "description": "The operator asserts ownership (self-hosted: no DNS challenge). Only verified domains take part in exact_app_link and probabilistic matching. Default false."
              },
              "deepViewEnabled": {
                "type": "boolean",
                "description": "The domain's Deep View switch (the link has the other). Default true."
              },
              "rootUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where / goes; null: the built-in page."
              },
              "notFoundUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where unknown and disabled keys go; null: the built-in 404 page."
              }
            },
            "required": ["hostname"]
          },
          "DomainUpdate": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "hostname": {
                "type": "string",
                "maxLength": 253,
                "pattern": "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$",
                "description": "Lower-case DNS name of at least two labels, not an IP address; punycode for IDNs. The primary key; cannot change."
              },
              "verified": {
                "type": "boolean",
                "description": "The operator asserts ownership (self-hosted: no DNS challenge). Only verified domains take part in exact_app_link and probabilistic matching. Default false."
              },
              "deepViewEnabled": {
                "type": "boolean",
                "description": "The domain's Deep View switch (the link has the other). Default true."
              },
              "rootUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where / goes; null: the built-in page."
              },
              "notFoundUrl": {
                "type": ["string", "null"],
                "format": "uri",
                "maxLength": 2048,
                "description": "Where unknown and disabled keys go; null: the built-in 404 page."
              }
            },
            "description": "JSON merge of the given fields over the stored domain. hostname may be sent only unchanged."
          },
          "DomainList": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "data": {"type": "array", "items": {"$ref": "#/components/schemas/Domain"}},
              "nextCursor": {
                "type": ["string", "null"],
                "description": "Pass as cursor to get the next page; null on the last page. (the last hostname)"
              }
            },
            "required": ["data", "nextCursor"]
          },
          "DeletedDomain": {
            "type": "object",
            "additionalProperties": false,
            "properties": {"hostname": {"type": "string"}, "deleted": {"const": true}},
            "required": ["hostname", "deleted"]
          },
          "DeletedResource": {
            "type": "object",
            "additionalProperties": false,
            "properties": {"id": {"type": "string"}, "deleted": {"const": true}},
            "required": ["id", "deleted"]
          }
        }
        """#
}
