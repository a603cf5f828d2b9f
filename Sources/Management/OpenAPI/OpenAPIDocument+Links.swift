import Core

/// The link paths.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let linkLinks: JSONValue = .object(
        pathLinks(
            "id", to: "id",
            [
                ("GetLink", "links.get"), ("UpdateLink", "links.update"), ("DeleteLink", "links.delete"),
                ("LinkAnalytics", "links.analytics"), ("LinkQRCodeSVG", "links.qrCodeSVG"),
                ("LinkQRCodePNG", "links.qrCodePNG"),
            ]))

    static let linkPaths: JSONValue = [
        "/api/v1/links": [
            "get": operation(
                "links.list", tag: "Links", summary: "List links",
                description: "Ordered by id (creation order), paginated; filter by domain and by tag.",
                parameters: pageParameters + [
                    [
                        "name": "domain", "in": "query", "description": "Only the links of this domain.",
                        "schema": ["type": "string"],
                    ],
                    [
                        "name": "tagId", "in": "query", "description": "Only the links carrying this tag.",
                        "schema": ["type": "string"],
                    ],
                ],
                answer: 200, "A page of links.", schema: schemaRef("LinkList"), errors: .listing),
            "post": operation(
                "links.create", tag: "Links", summary: "Create a link",
                description:
                    "The domain and the mobile app must exist (422 naming the field); the key must be free on the domain (409 alias_taken). On a domain with several iOS apps, whose apple-app-site-association lists each app link's key, a link with a mobile app that would take that file over 128 KiB is refused (422 validation_error on domain): use one domain per app.",
                writes: true, answer: 201, "The link.", schema: schemaRef("Link"), links: linkLinks, body: "LinkCreate",
                errors: .creating, more: ["409": [.aliasTaken, .externalIdTaken], "422": [.urlBlocked]]),
        ],
        "/api/v1/links/{id}": [
            "get": operation(
                "links.get", tag: "Links", summary: "Get a link", parameters: [parameterRef("LinkRef")],
                answer: 200, "The link.", schema: schemaRef("Link"), errors: .reading),
            "patch": operation(
                "links.update", tag: "Links", summary: "Update a link",
                description:
                    "Merge of the given fields; mobile and preview one level deep. The 128 KiB rule of create applies to the link as changed.",
                parameters: [parameterRef("LinkRef")], writes: true,
                answer: 200, "The link.", schema: schemaRef("Link"), body: "LinkUpdate", errors: .changing,
                more: ["409": [.aliasTaken, .externalIdTaken], "422": [.urlBlocked]]),
            "delete": operation(
                "links.delete", tag: "Links", summary: "Delete a link", parameters: [parameterRef("LinkRef")],
                writes: true, answer: 200, "Deleted.", schema: schemaRef("DeletedResource"), errors: .deleting),
        ],
    ]
}
