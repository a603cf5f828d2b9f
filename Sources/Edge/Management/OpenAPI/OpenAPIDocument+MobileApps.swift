/// The Mobile App paths.
///
/// Plain JSON (the OpenAPI 3.1 document is assembled from these parts by
/// `OpenAPIDocument`); `ManagementOpenAPITests` and the black-box test
/// `test_management_openapi.py` keep it true to the routes and the answers.
extension OpenAPIDocument {
    static let mobileAppPaths = #"""
        {
          "/api/v1/mobile-apps": {
            "get": {
              "operationId": "mobileApps.list",
              "tags": ["Mobile Apps"],
              "summary": "List Mobile Apps",
              "description": "Ordered by id, paginated.",
              "parameters": [
                {"$ref": "#/components/parameters/Limit"},
                {"$ref": "#/components/parameters/Cursor"},
                {"$ref": "#/components/parameters/RequestId"}
              ],
              "responses": {
                "200": {
                  "description": "A page of apps.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppList"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            },
            "post": {
              "operationId": "mobileApps.create",
              "tags": ["Mobile Apps"],
              "summary": "Create a Mobile App",
              "description": "Returns the app with its first publishable key (biqli_mobile_pk_...), shown this once. The app's domains must exist; an iOS app ID or Android package may appear once per domain; each association file stays within 128 KiB.",
              "parameters": [
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "201": {
                  "description": "The app and its first publishable key.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppCreated"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "422": {"$ref": "#/components/responses/Unprocessable"},
                "409": {"$ref": "#/components/responses/Conflict"},
                "500": {"$ref": "#/components/responses/InternalError"}
              },
              "requestBody": {
                "required": true,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppCreate"}}}
              }
            }
          },
          "/api/v1/mobile-apps/{id}": {
            "get": {
              "operationId": "mobileApps.get",
              "tags": ["Mobile Apps"],
              "summary": "Get a Mobile App",
              "description": "",
              "parameters": [{"$ref": "#/components/parameters/AppId"}, {"$ref": "#/components/parameters/RequestId"}],
              "responses": {
                "200": {
                  "description": "The app.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileApp"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            },
            "patch": {
              "operationId": "mobileApps.update",
              "tags": ["Mobile Apps"],
              "summary": "Update a Mobile App",
              "description": "Merge of the given fields; ios and android one level deep.",
              "parameters": [
                {"$ref": "#/components/parameters/AppId"},
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "200": {
                  "description": "The app.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileApp"}}}
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
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppUpdate"}}}
              }
            },
            "delete": {
              "operationId": "mobileApps.delete",
              "tags": ["Mobile Apps"],
              "summary": "Delete a Mobile App",
              "description": "Revokes its publishable keys, removes it from the association files of its domains, and turns its links into plain web links.",
              "parameters": [
                {"$ref": "#/components/parameters/AppId"},
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
          },
          "/api/v1/mobile-apps/{id}/keys/rotate": {
            "post": {
              "operationId": "mobileApps.rotateKey",
              "tags": ["Mobile Apps"],
              "summary": "Rotate the publishable key",
              "description": "Issues a new publishable key (shown this once). Every key that had no end now works until now + keyOverlapSeconds. Takes no body.",
              "parameters": [
                {"$ref": "#/components/parameters/AppId"},
                {"$ref": "#/components/parameters/RequestId"},
                {"$ref": "#/components/parameters/IdempotencyKey"}
              ],
              "responses": {
                "200": {
                  "description": "The new key.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                    "Idempotent-Replayed": {
                      "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
                      "schema": {"type": "string", "const": "true"}
                    }
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/KeyRotation"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "422": {"$ref": "#/components/responses/Unprocessable"},
                "409": {"$ref": "#/components/responses/Conflict"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            }
          },
          "/api/v1/mobile-apps/{id}/analytics": {
            "get": {
              "operationId": "mobileApps.analytics",
              "tags": ["Mobile Apps"],
              "summary": "Mobile App analytics",
              "description": "Clicks by platform and kind, opens by match type and first-open flag, and the 50 most recent opens.",
              "parameters": [
                {"$ref": "#/components/parameters/AppId"},
                {
                  "name": "days",
                  "in": "query",
                  "schema": {"type": "integer", "minimum": 1, "maximum": 365, "default": 30}
                },
                {"$ref": "#/components/parameters/RequestId"}
              ],
              "responses": {
                "200": {
                  "description": "The numbers.",
                  "headers": {
                    "X-Biq-Request-Id": {"$ref": "#/components/headers/RequestId"},
                    "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
                  },
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AppAnalytics"}}}
                },
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"},
                "500": {"$ref": "#/components/responses/InternalError"}
              }
            }
          }
        }
        """#
}
