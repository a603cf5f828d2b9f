import Core

/// The operation builder and the references the parts share.
///
/// Every answer of the workspace API carries X-Biq-Request-Id and Cache-Control, takes an
/// X-Biq-Request-Id, and every write goes through the idempotency layer; `operation`
/// adds these so that no operation has to repeat them.
extension OpenAPIDocument {
    static func ref(_ section: String, _ name: String) -> JSONValue {
        ["$ref": .string("#/components/\(section)/\(name)")]
    }

    static func schemaRef(_ name: String) -> JSONValue { ref("schemas", name) }

    static func parameterRef(_ name: String) -> JSONValue { ref("parameters", name) }

    static func jsonContent(_ schema: JSONValue) -> JSONValue { ["application/json": ["schema": schema]] }

    static let pageParameters = [parameterRef("Limit"), parameterRef("Cursor")]

    /// Links that pass the answer's `field` as the path parameter `parameter` of each operation.
    static func pathLinks(_ field: String, to parameter: String, _ operations: [(String, String)]) -> [(
        String, JSONValue
    )] {
        operations.map { name, operationId in
            (
                name,
                [
                    "operationId": .string(operationId),
                    "parameters": .object([(parameter, .string("$response.body#/" + field))]),
                ]
            )
        }
    }

    /// A link that fills part of the target's request body with values of the answer.
    static func bodyLink(_ operationId: String, _ body: JSONValue) -> JSONValue {
        ["operationId": .string(operationId), "requestBody": body]
    }

    /// The headers of every answer.
    static let standardHeaders: [(String, JSONValue)] = [
        ("X-Biq-Request-Id", ref("headers", "RequestId")),
        ("Cache-Control", ref("headers", "CacheControl")),
    ]

    static let replayedHeader: (String, JSONValue) = (
        "Idempotent-Replayed",
        [
            "description": "true when this is a stored answer replayed for the same Idempotency-Key.",
            "schema": ["type": "string", "const": "true"],
        ]
    )

    /// One operation.
    ///
    /// - Parameters:
    ///   - parameters: those before the shared X-Biq-Request-Id (and Idempotency-Key on writes).
    ///   - writes: the route stores its answer under an Idempotency-Key.
    ///   - isPublic: the route needs no key.
    ///   - status, answerDescription, schema: the success answer.
    ///   - body: the request body's schema name.
    ///   - links: OpenAPI links from the success answer to the operations that take what it
    ///     returns (clients and the stateful phase of `scripts/test`'s schemathesis follow them).
    ///   - errors: the error statuses; `more`, by status, the codes this operation answers
    ///     beside those every operation does (`OpenAPIErrorResponse.codes`).
    static func operation(
        _ id: String, tag: String, summary: String, description: String = "", parameters: [JSONValue] = [],
        writes: Bool = false, isPublic: Bool = false,
        answer status: Int, _ answerDescription: String, schema: JSONValue, links: JSONValue? = nil,
        body: String? = nil, errors: [OpenAPIErrorResponse], more: [String: [ManagementErrorCode]] = [:]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("operationId", .string(id)), ("tags", [.string(tag)]), ("summary", .string(summary)),
            ("description", .string(description)),
        ]
        if isPublic { members.append(("security", [])) }
        let shared = writes ? [parameterRef("RequestId"), parameterRef("IdempotencyKey")] : [parameterRef("RequestId")]
        members.append(("parameters", .array(parameters + shared)))
        var success: JSONValue = [
            "description": .string(answerDescription),
            "headers": .object(writes ? standardHeaders + [replayedHeader] : standardHeaders),
            "content": jsonContent(schema),
        ]
        if let links { success = success.adding("links", links) }
        members.append(
            (
                "responses",
                .object(
                    [(String(status), success)] + errors.map { ($0.status, $0.answer(more: more[$0.status] ?? [])) })
            ))
        if let body { members.append(("requestBody", ["required": true, "content": jsonContent(schemaRef(body))])) }
        return .object(members)
    }
}
