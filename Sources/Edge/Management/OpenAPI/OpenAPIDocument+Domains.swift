/// The domain and meta paths.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let domainPaths = #"""
        {
          "/api/v1/openapi.json": {
            "get": {
              "operationId": "openapi.get",
              "tags": ["Meta"],
              "summary": "This document",
              "description": "Needs no key.",
              "security": [],
              "parameters": [{"$ref": "#/components/parameters/RequestId"}],
              "responses": {
                "200": {
                  "description": "OpenAPI 3.1 document.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "paths"]}}}
                }
              }
            }
          },
          "/api/v1/domains": {
            "get": {
              "operationId": "domains.list",
              "tags": ["Domains"],
              "summary": "List domains",
              "description": "Ordered by hostname, paginated.",
              "parameters": [
                {"$ref": "#/components/parameters/Limit"},
                {"$ref": "#/components/parameters/Cursor"},
                {"$ref": "#/components/parameters/RequestId"}
              ],
              "responses": {
                "200": {
                  "description": "A page of domains.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DomainList"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            },
            "post": {
              "operationId": "domains.create",
              "tags": ["Domains"],
              "summary": "Create a domain",
              "description": "409 domain_taken when the hostname exists.",
              "parameters": [
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "201": {
                  "description": "The domain.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Domain"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "422": {"$ref": "#/components/responses/Unprocessable"},
                "409": {"$ref": "#/components/responses/Conflict"},
                "500": {"$ref": "#/components/responses/InternalError"}
              },
              "requestBody": {
                "required": true,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DomainCreate"}}}
              }
            }
          },
          "/api/v1/domains/{hostname}": {
            "get": {
              "operationId": "domains.get",
              "tags": ["Domains"],
              "summary": "Get a domain",
              "description": "",
              "parameters": [
                {"$ref": "#/components/parameters/Hostname"},
                {"$ref": "#/components/parameters/RequestId"}
              ],
              "responses": {
                "200": {
                  "description": "The domain.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Domain"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            },
            "patch": {
              "operationId": "domains.update",
              "tags": ["Domains"],
              "summary": "Update a domain",
              "description": "Merge of the given fields.",
              "parameters": [
                {"$ref": "#/components/parameters/Hostname"},
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "200": {
                  "description": "The domain.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Domain"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "422": {"$ref": "#/components/responses/Unprocessable"},
                "409": {"$ref": "#/components/responses/Conflict"},
                "500": {"$ref": "#/components/responses/InternalError"}
              },
              "requestBody": {
                "required": true,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DomainUpdate"}}}
              }
            },
            "delete": {
              "operationId": "domains.delete",
              "tags": ["Domains"],
              "summary": "Delete a domain",
              "description": "Deletes the domain and its links, and detaches it from every Mobile App (so it leaves their association files).",
              "parameters": [
                {"$ref": "#/components/parameters/Hostname"},
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "200": {
                  "description": "Deleted.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DeletedDomain"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "409": {"$ref": "#/components/responses/Conflict"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            }
          }
        }
        """#
}
