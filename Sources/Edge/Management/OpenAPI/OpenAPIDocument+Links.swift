/// The link paths.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let linkPaths = #"""
        {
          "/api/v1/links": {
            "get": {
              "operationId": "links.list",
              "tags": ["Links"],
              "summary": "List links",
              "description": "Ordered by id (creation order), paginated; filter by domain.",
              "parameters": [
                {"$ref": "#/components/parameters/Limit"},
                {"$ref": "#/components/parameters/Cursor"},
                {
                  "name": "domain",
                  "in": "query",
                  "description": "Only the links of this domain.",
                  "schema": {"type": "string"}
                },
                {"$ref": "#/components/parameters/RequestId"}
              ],
              "responses": {
                "200": {
                  "description": "A page of links.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LinkList"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            },
            "post": {
              "operationId": "links.create",
              "tags": ["Links"],
              "summary": "Create a link",
              "description": "The domain and the mobile app must exist (422 naming the field); the key must be free on the domain (409 alias_taken).",
              "parameters": [
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "201": {
                  "description": "The link.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Link"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "422": {"$ref": "#/components/responses/Unprocessable"},
                "409": {"$ref": "#/components/responses/Conflict"},
                "500": {"$ref": "#/components/responses/InternalError"}
              },
              "requestBody": {
                "required": true,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LinkCreate"}}}
              }
            }
          },
          "/api/v1/links/{id}": {
            "get": {
              "operationId": "links.get",
              "tags": ["Links"],
              "summary": "Get a link",
              "description": "",
              "parameters": [{"$ref": "#/components/parameters/LinkId"}, {"$ref": "#/components/parameters/RequestId"}],
              "responses": {
                "200": {
                  "description": "The link.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Link"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            },
            "patch": {
              "operationId": "links.update",
              "tags": ["Links"],
              "summary": "Update a link",
              "description": "Merge of the given fields; mobile and preview one level deep.",
              "parameters": [
                {"$ref": "#/components/parameters/LinkId"},
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "200": {
                  "description": "The link.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Link"}}}
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
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LinkUpdate"}}}
              }
            },
            "delete": {
              "operationId": "links.delete",
              "tags": ["Links"],
              "summary": "Delete a link",
              "description": "",
              "parameters": [
                {"$ref": "#/components/parameters/LinkId"},
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
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DeletedResource"}}}
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
