import Core

/// Customers and their leads and sales (issue 25, item 5; decision 0024).
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box tests keep it true to the routes and answers.
extension OpenAPIDocument {
    static let externalIdParameter = pathParameter(
        "externalId", ["type": "string", "minLength": 1, "maxLength": 255],
        "The customer's external ID (the workspace's own, as sent in customerExternalId), percent-encoded.")

    static let customerPaths: JSONValue = [
        "/api/v1/customers": [
            "get": operation(
                "customers.list", tag: "Conversions", summary: "List customers",
                description: "Ordered by id (creation order), paginated. Needs customers.read.",
                parameters: pageParameters, answer: 200, "A page of customers.", schema: schemaRef("CustomerList"),
                errors: .listing)
        ],
        "/api/v1/customers/{externalId}": [
            "get": operation(
                "customers.get", tag: "Conversions", summary: "Get a customer and its journey",
                description:
                    "The customer, the click and link it was attributed to, its leads and its sales (the first 200 events, oldest first). Needs customers.read.",
                parameters: [externalIdParameter], answer: 200, "The customer.", schema: schemaRef("CustomerDetail"),
                errors: .reading),
            "delete": operation(
                "customers.erase", tag: "Conversions", summary: "Erase a customer's personal data",
                description:
                    "Clears the name, email and avatar, replaces the external ID by erased_<id> (so the external ID no longer finds it: 404 after), and takes them out of its events' stored answers and of their lead.created and sale.created webhook payloads (every endpoint's, whatever their state). Its events lose the external ID too: an eventId that holds it becomes erased_<event id> (a retry of such an event is then a new event; one with any other eventId is still a replay), and it is replaced by the erased ID in their names, invoice IDs and metadata. Its leads and sales, amounts and attribution stay (counts and revenue are kept). Needs customers.write.",
                parameters: [externalIdParameter], writes: true, answer: 200, "Erased.",
                schema: schemaRef("CustomerErased"), errors: .deleting),
        ],
        "/api/v1/events": [
            "get": operation(
                "events.list", tag: "Conversions", summary: "List leads and sales",
                description:
                    "In the order they were recorded, paginated; of one type and of one link when asked. Needs events.read.",
                parameters: pageParameters + [
                    [
                        "name": "type", "in": "query", "description": "Only leads or only sales.",
                        "schema": ["type": "string", "enum": ["lead", "sale"]],
                    ],
                    [
                        "name": "linkId", "in": "query", "description": "Only the events attributed to this link.",
                        "schema": ["type": "string", "minLength": 1, "maxLength": 255],
                    ],
                ], answer: 200, "A page of events.", schema: schemaRef("ConversionEventList"), errors: .listing)
        ],
    ]

    static let nullableText: JSONValue = ["type": ["string", "null"]]

    static let customerProperties: [(String, JSONValue)] = [
        ("id", ["type": "string", "pattern": "^biq_cus_"]),
        ("externalId", ["type": "string"]),
        ("name", nullableText), ("email", nullableText), ("avatar", nullableText),
        ("clickId", nullableText), ("linkId", nullableText),
        ("createdAt", timestamp), ("updatedAt", timestamp),
    ]

    static let eventSchema = record([
        "id": ["type": "string", "pattern": "^biq_[ls]ev_"],
        "type": enumeration(["lead", "sale"]),
        "eventId": ["type": "string"], "eventName": ["type": "string"],
        "occurredAt": timestamp, "createdAt": timestamp,
        "customerId": ["type": "string"], "clickId": nullableText, "linkId": nullableText,
        "amount": ["type": ["integer", "null"], "minimum": 0],
        "currency": nullableText, "paymentProcessor": nullableText, "invoiceId": nullableText,
        "metadata": ["type": "object", "additionalProperties": true],
    ])

    static let customerSchemas: JSONValue = [
        "Customer": object(customerProperties, required: customerProperties.map(\.0)),
        "CustomerDetail": object(
            customerProperties + [
                ("click", ["oneOf": [record(["id": ["type": "string"]]), ["type": "null"]]]),
                (
                    "link",
                    ["oneOf": [record(["id": ["type": "string"], "shortUrl": ["type": "string"]]), ["type": "null"]]]
                ),
                ("leads", ["type": "array", "items": schemaRef("ConversionEvent")]),
                ("sales", ["type": "array", "items": schemaRef("ConversionEvent")]),
            ],
            required: customerProperties.map(\.0) + ["click", "link", "leads", "sales"]),
        "CustomerList": list(of: "Customer", cursorIs: "the last customer's id"),
        "CustomerErased": record(["id": ["type": "string"], "erased": ["const": true]]),
        "ConversionEvent": eventSchema,
        "ConversionEventList": list(of: "ConversionEvent", cursorIs: "the last event's id"),
    ]
}
