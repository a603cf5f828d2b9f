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
                "certificate",
                schemaRef("DomainCertificate").adding("readOnly", true).adding(
                    "description",
                    "What serves this host over HTTPS now, and the state of its ACME orders (BIQLI_EDGE_ACME).")),
            OpenAPIField(
                "deepViewEnabled", boolean("The domain's Deep View switch (the link has the other). Default true.")),
            OpenAPIField("rootUrl", url("Where / goes; null: the built-in page.")),
            OpenAPIField(
                "notFoundUrl", url("Where unknown and disabled keys go; null: the built-in 404 page.")),
            OpenAPIField(
                "trackConversions",
                boolean(
                    "Conversion tracking for the domain's links that do not set their own: a web redirect "
                        + "carries the click's id to the destination as bq_id. Default false.")),
            OpenAPIField(
                "passQuery",
                boolean(
                    "Whether the visitor's query parameters go on to the web destination, for the domain's links "
                        + "whose passQuery is null. Default false.")),
            OpenAPIField(
                "alternateHostname",
                [
                    "oneOf": [hostname(), ["type": "null"]],
                    "description":
                        "A second DNS name the edge serves as this domain: the same links (https://<alternate>/<key>), the same association files, a certificate where the domain gets one; the resolver takes a deep link on it as the domain's. iOS opens the app only when a tap crosses domains, so the in-app Deep View's Open in the app links there. Not the hostname, and no other domain's hostname or alternate (422 validation_error on alternateHostname). Default null.",
                ]),
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
        "DomainCertificate": record(
            [
                "source": enumeration(DomainCertificate.Source.allCases.map(\.rawValue)).adding(
                    "description",
                    "directory: an operator's file in the certificate directory; acme: ordered by the edge; self-signed: a self-signed file (the generated default.pem); none."
                ),
                "status": enumeration(DomainCertificate.Status.allCases.map(\.rawValue)).adding(
                    "description",
                    "valid or expired: the certificate serving the host; pending: no certificate yet, an ACME order is due or under way; failed: no certificate yet and the last order failed (lastError); none."
                ),
                "notAfter": [
                    "type": ["string", "null"], "format": "date-time",
                    "description": "When the certificate serving the host expires.",
                ],
                "issuer": ["type": ["string", "null"], "description": "Its issuer (RFC 2253)."],
                "lastError": [
                    "oneOf": [schemaRef("CertificateProblem"), ["type": "null"]],
                    "description": "Why the last ACME order failed; null after a success.",
                ],
                "nextAttemptAt": [
                    "type": ["string", "null"], "format": "date-time",
                    "description":
                        "The next ACME order: the retry after a failure (with growing backoff), or the renewal of an ordered certificate.",
                ],
            ], description: "Read-only."),
        "CertificateProblem": record(
            [
                "type": [
                    "type": "string",
                    "description":
                        "The CA's problem type (urn:ietf:params:acme:error:*), or the edge's own (urn:biqli-edge:acme:*).",
                ],
                "detail": ["type": "string"],
            ], description: "The CA's problem document (RFC 8555, section 6.7), or the edge's reason."),
        "DeletedDomain": deleted(key: "hostname"),
        "DeletedResource": deleted(key: "id"),
    ]
}
