import Core

/// The bulk link path (issue 35): up to 100 creates, updates or deletes a call, an answer
/// per item.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let bulkItemError = record(
        [
            "code": ["type": "string", "enum": .array(errorCodes.map(JSONValue.string))],
            "message": ["type": "string"],
            "details": ["type": "object", "additionalProperties": true],
        ], optional: ["details"], description: "The error the item would have had alone (its status is the item's).")

    static let linkBulkSchemas: JSONValue = [
        "LinkBulkCreate": record([
            "links": [
                "type": "array", "minItems": 1, "maxItems": 100,
                "items": [
                    "description":
                        "A link as links.create takes it (LinkCreate). Each item is checked alone: a bad one is its own entry of the answer (422 there), not a refusal of the call."
                ],
            ]
        ]),
        "LinkBulkUpdate": record([
            "links": [
                "type": "array", "minItems": 1, "maxItems": 100,
                "items": [
                    "description":
                        "The link's id (or ext_ and its externalId) as id, and the fields to change as links.update takes them (LinkUpdate). Each item is checked alone, as in links.bulkCreate."
                ],
                "description": "Each item: the link's id and the fields to change (as a PATCH of the link).",
            ]
        ]),
        "LinkBulkDelete": record([
            "ids": [
                "type": "array", "minItems": 1, "maxItems": 100,
                "items": [
                    "description":
                        "A link's id, or ext_ and its externalId. Each item is checked alone, as in links.bulkCreate."
                ],
            ]
        ]),
        "LinkBulkResult": record([
            "data": [
                "type": "array",
                "items": record(
                    [
                        "index": ["type": "integer", "minimum": 0, "description": "The item's place in the request."],
                        "status": ["type": "integer", "description": "What the item alone would have answered."],
                        "link": schemaRef("Link"),
                        "id": ["type": "string"],
                        "deleted": ["type": "boolean", "const": true],
                        "error": bulkItemError,
                    ], optional: ["link", "id", "deleted", "error"]),
            ]
        ]),
    ]

    static let bulkDescription =
        "Up to 100 items in one transaction, an answer per item in data (its status, and the link or the error it would have had alone). Each item is all or nothing; a refused item does not stop the others. A failure of the store fails the whole call (nothing written). With Idempotency-Key, a retry replays the answer."

    static let linkBulkPaths: JSONValue = [
        "/api/v1/links/bulk": [
            "post": operation(
                "links.bulkCreate", tag: "Links", summary: "Create links in bulk", description: bulkDescription,
                writes: true, answer: 200, "An answer per item.", schema: schemaRef("LinkBulkResult"),
                body: "LinkBulkCreate", errors: .creating),
            "patch": operation(
                "links.bulkUpdate", tag: "Links", summary: "Update links in bulk", description: bulkDescription,
                writes: true, answer: 200, "An answer per item.", schema: schemaRef("LinkBulkResult"),
                body: "LinkBulkUpdate", errors: .creating),
            "delete": operation(
                "links.bulkDelete", tag: "Links", summary: "Delete links in bulk", description: bulkDescription,
                writes: true, answer: 200, "An answer per item.", schema: schemaRef("LinkBulkResult"),
                body: "LinkBulkDelete", errors: .creating),
        ]
    ]
}
