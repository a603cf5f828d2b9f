import Core

/// Schemas of domains and deletions.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let domainFields: [OpenAPIField] =
        [
            OpenAPIField(
                "hostname",
                hostname(
                    "Lower-case DNS name of at least two labels, not an IP address; punycode for IDNs. The primary key; cannot change."
                )),
            OpenAPIField(
                "verified",
                boolean(
                    "The operator asserts ownership (self-hosted: no DNS challenge). Only verified domains take part in exact_app_link and probabilistic matching. Default false."
                )),
            OpenAPIField(
                "httpsActive",
                [
                    "type": "boolean", "readOnly": true,
                    "description": "A valid, unexpired certificate for this host is loaded.",
                ]),
            OpenAPIField(
                "deepViewEnabled", boolean("The domain's Deep View switch (the link has the other). Default true.")),
            OpenAPIField("rootUrl", url("Where / goes; null: the built-in page.")),
            OpenAPIField(
                "notFoundUrl", url("Where unknown and disabled keys go; null: the built-in 404 page.")),
        ] + timestamps

    static let domainSchemas: JSONValue = [
        "Domain": domainFields.schema(.read),
        "DomainCreate": domainFields.schema(.create, required: ["hostname"]),
        "DomainUpdate": domainFields.schema(
            .update,
            description:
                "JSON merge of the given fields over the stored domain. hostname may be sent only unchanged (another one is 422: it is the domain's key)."
        ),
        "DomainList": list(of: "Domain", cursorIs: "the last hostname"),
        "DeletedDomain": deleted(key: "hostname"),
        "DeletedResource": deleted(key: "id"),
    ]
}
