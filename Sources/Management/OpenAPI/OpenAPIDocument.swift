import Core

/// The OpenAPI 3.1 document of the workspace API, served at `GET /api/v1/openapi.json`.
///
/// Built once from the `OpenAPIDocument+*.swift` parts, which write each fact once: the
/// operations come from `operation(...)` (shared headers, parameters and
/// `OpenAPIErrorResponse` lists), and each resource's answer and body schemas from one
/// `OpenAPIField` table. Two tests keep it true: `ManagementOpenAPITests` (every route of
/// `ManagementRoutesTable` is documented with its method and operation id, and
/// nothing else is) and `tests/blackbox/test_management_openapi.py` (every documented
/// operation is called on the real binary and each answer is validated against the
/// documented schema).
enum OpenAPIDocument {
    static let head: JSONValue = [
        "openapi": "3.1.0",
        "info": [
            "title": "biqli-edge workspace API",
            "version": "1.0.0",
            "description":
                "Domains, Mobile Apps, publishable keys and links of a self-hosted biqli-edge, their analytics and the links' QR codes. Every route needs a workspace secret key (Authorization: Bearer biqli_sk_...) except this document. Errors use the standard envelope {error:{code,message,details},request_id}; every answer carries X-Biq-Request-Id and, but the QR images, Cache-Control: no-store. Writes accept an optional Idempotency-Key. A key made with --scope holds only its scopes (403 insufficient_scope otherwise). The server SDK's conversion calls (POST /api/v1/track/lead and /track/sale) follow the SDK's header rules. POST /api/v1/track/click takes a workspace browser key (biqli_pk_...) from an allowed page instead, with CORS. The mobile resolver (POST /api/v1/track/open) takes a Mobile App's publishable key (biqli_mobile_pk_...) and answers in its own envelope (requestId).",
        ],
        "security": [["workspaceSecretKey": []]],
        "tags": [
            ["name": "Domains"], ["name": "Mobile Apps"], ["name": "Links"], ["name": "Tags"], ["name": "Conversions"],
            ["name": "Client-side click tracking"], ["name": "In-app browsers"], ["name": "Webhooks"],
            ["name": "Mobile attribution"],
            ["name": "Meta"],
        ],
    ]

    /// The document without `servers` (they come from the configuration).
    static let base: JSONValue = assemble()

    static func assemble() -> JSONValue {
        func members(_ part: JSONValue) -> [(String, JSONValue)] { part.objectValue ?? [] }
        let paths = [
            domainPaths, mobileAppPaths, linkPaths, linkReportPaths, conversionPaths, customerPaths, clientClickPaths,
            inAppEscapePaths, webhookPaths, trackOpenPaths, tagPaths, linkBulkPaths,
        ].flatMap(members)
        let schemas = [
            domainSchemas, linkSchemas, linkOptionSchemas, tagSchemas, linkBulkSchemas, appSchemas, platformSchemas,
            otherSchemas,
            linkReportSchemas,
            conversionSchemas,
            customerSchemas, clientClickSchemas, inAppEscapeSchemas, webhookSchemas, trackOpenSchemas,
        ]
        .flatMap(members)
        let components = members(commonComponents) + [("schemas", .object(schemas))]
        return .object(members(head) + [("paths", .object(paths)), ("components", .object(components))])
    }

    /// The document with `publicURL` (`BIQLI_EDGE_PUBLIC_URL`) as its server.
    static func document(publicURL: String) -> JSONValue {
        var members = base.objectValue ?? []
        members.insert(("servers", .array([.object([("url", .string(publicURL))])])), at: 2)
        return .object(members)
    }

    static let answer: ManagementRoute.Read = { _, _, environment in
        ManagementAnswer(200, document(publicURL: environment.publicURL))
    }
}
