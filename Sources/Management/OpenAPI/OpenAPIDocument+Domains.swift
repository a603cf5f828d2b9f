import Core

/// The domain and meta paths.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let domainLinks: JSONValue = .object(
        pathLinks(
            "hostname", to: "hostname",
            [("GetDomain", "domains.get"), ("UpdateDomain", "domains.update"), ("DeleteDomain", "domains.delete")])
            + [
                (
                    "ListLinksOfDomain",
                    ["operationId": "links.list", "parameters": ["domain": "$response.body#/hostname"]]
                ),
                // A plain web link: a generated mobile payload would name an app that does not exist.
                (
                    "CreateLinkOnDomain",
                    bodyLink("links.create", ["domain": "$response.body#/hostname", "mobile": .null])
                ),
                ("CreateAppOnDomain", bodyLink("mobileApps.create", ["domains": ["$response.body#/hostname"]])),
            ])

    static let domainPaths: JSONValue = [
        "/api/v1/openapi.json": [
            "get": operation(
                "openapi.get", tag: "Meta", summary: "This document", description: "Needs no key.", isPublic: true,
                answer: 200, "OpenAPI 3.1 document.", schema: ["type": "object", "required": ["openapi", "paths"]],
                errors: .meta)
        ],
        "/api/v1/domains": [
            "get": operation(
                "domains.list", tag: "Domains", summary: "List domains", description: "Ordered by hostname, paginated.",
                parameters: pageParameters, answer: 200, "A page of domains.", schema: schemaRef("DomainList"),
                errors: .listing),
            "post": operation(
                "domains.create", tag: "Domains", summary: "Create a domain",
                description: "409 domain_taken when the hostname exists.", writes: true,
                answer: 201, "The domain.", schema: schemaRef("Domain"), links: domainLinks, body: "DomainCreate",
                errors: .creating, more: ["409": [.domainTaken], "422": [.urlBlocked]]),
        ],
        "/api/v1/domains/{hostname}": [
            "get": operation(
                "domains.get", tag: "Domains", summary: "Get a domain", parameters: [parameterRef("Hostname")],
                answer: 200, "The domain.", schema: schemaRef("Domain"), errors: .reading),
            "patch": operation(
                "domains.update", tag: "Domains", summary: "Update a domain", description: "Merge of the given fields.",
                parameters: [parameterRef("Hostname")], writes: true,
                answer: 200, "The domain.", schema: schemaRef("Domain"), body: "DomainUpdate", errors: .changing,
                more: ["422": [.urlBlocked]]),
            "delete": operation(
                "domains.delete", tag: "Domains", summary: "Delete a domain",
                description:
                    "Deletes the domain and its links, and detaches it from every Mobile App (so it leaves their association files).",
                parameters: [parameterRef("Hostname")], writes: true,
                answer: 200, "Deleted.", schema: schemaRef("DeletedDomain"), errors: .deleting),
        ],
    ]
}
