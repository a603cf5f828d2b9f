import Core
import Model

/// The link fields of issue 35 (decision 0032): routing rules, an A/B test, UTM, the
/// visitor's query, expiry, tags and an external id, and their schemas.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let linkOptionFields: [OpenAPIField] = [
        OpenAPIField(
            "rules",
            [
                "type": ["array", "null"], "maxItems": .int(Int64(LinkOptions.maxRules)),
                "items": schemaRef("LinkRule"),
                "description":
                    "In order: the first rule whose every condition holds chooses the web destination instead of url. null or [] clears.",
            ]),
        OpenAPIField(
            "variants",
            [
                "type": ["array", "null"], "maxItems": 5, "items": schemaRef("LinkVariant"),
                "description":
                    "None, or 2 to 5 whose weights sum to 100 (else 422 validation_error on variants): an A/B test of the web visits no rule took. A visitor keeps their arm (cookie bq_v on the short domain, 90 days); each click records it.",
            ]),
        OpenAPIField("utm", nullableRef("UTMParameters")),
        OpenAPIField(
            "passQuery",
            nullableBoolean(
                "Whether the visitor's query parameters go on to the web destination (the destination's own and UTM win; bq_* and biqli_* never pass; dropped when the URL would pass 4096 bytes). null: the domain's passQuery."
            )),
        OpenAPIField(
            "expiresAt",
            [
                "type": ["string", "null"], "format": "date-time",
                "description":
                    "RFC 3339. From this instant every visit goes to expiredUrl, or gets a 410 page; handoffs made before still resolve. null: never.",
            ]),
        OpenAPIField(
            "expiredUrl", url("Where an expired link sends every visitor; needs expiresAt. null: a 410 page.")),
        OpenAPIField(
            "tagIds",
            [
                "type": ["array", "null"], "maxItems": .int(Int64(LinkOptions.maxTags)), "uniqueItems": true,
                "items": ["type": "string", "pattern": idPattern(Identifier.tagPrefix)],
                "description": "Tags of the workspace (an unknown one is 422 naming tagIds[i]); answered in id order.",
            ]),
        OpenAPIField(
            "externalId",
            [
                "type": ["string", "null"], "minLength": 1,
                "maxLength": .int(Int64(LinkOptionsInput.maxExternalIdLength)),
                "pattern": "^[!-~]([ -~]*[!-~])?$",
                "description":
                    "The caller's own id, unique in the workspace (409 external_id_taken); /api/v1/links/ext_<externalId> addresses the link.",
            ]),
        OpenAPIField(
            "inAppEscapes",
            [
                "oneOf": [schemaRef("InAppEscapeSwitches"), ["type": "null"]],
                "description":
                    "This link's switches of the escapes from in-app browsers, over the workspace's (GET /api/v1/in-app-escapes); replaced whole. null or {}: the workspace's.",
            ]),
    ]

    static let countryCodes: JSONValue = [
        "type": "array", "minItems": 1, "maxItems": .int(Int64(RuleConditions.maxCountries)),
        "items": ["type": "string", "pattern": "^[A-Za-z]{2}$"],
        "description": "ISO 3166-1 alpha-2 codes (from the GeoIP database; a visitor without a country matches none).",
    ]

    static let linkOptionSchemas: JSONValue = [
        "LinkRule": object(
            [
                ("if", schemaRef("RuleConditions")),
                ("url", url("The web destination of the visitors the rule matches.", nullable: false)),
                (
                    "skipApp",
                    boolean(
                        "Send a matching mobile visitor of an app link to url too, instead of the store or the Deep View. Default false."
                    )
                ),
            ], required: ["if", "url"]),
        "RuleConditions": object(
            [
                ("countries", countryCodes),
                (
                    "platforms",
                    [
                        "type": "array", "minItems": 1, "maxItems": 3,
                        "items": ["type": "string", "enum": ["ios", "android", "desktop"]],
                    ]
                ),
                (
                    "languages",
                    [
                        "type": "array", "minItems": 1, "maxItems": .int(Int64(RuleConditions.maxLanguages)),
                        "items": [
                            "type": "string", "maxLength": 35, "pattern": "^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$",
                        ],
                        "description":
                            "BCP 47 tags matched against the visitor's first preferred language (Accept-Language): pt matches pt-BR.",
                    ]
                ),
                (
                    "devices",
                    [
                        "type": "array", "minItems": 1, "maxItems": 3,
                        "items": ["type": "string", "enum": ["phone", "tablet", "desktop"]],
                    ]
                ),
            ], required: [],
            description: "Each list, when present, holds when any value matches; {} matches every visitor."),
        "LinkVariant": object(
            [
                ("url", url("This arm's web destination.", nullable: false)),
                ("weight", ["type": "integer", "minimum": 1, "maximum": 100]),
            ], required: ["url", "weight"]),
        "UTMParameters": object(
            ["source", "medium", "campaign", "term", "content"].map {
                ($0, text(UTMParameters.maxLength, nullable: true))
            }, required: [],
            description:
                "Added as utm_<name> to every web destination of the link (url, rules, variants), replacing the destination's own; never to stores, handoffs or expiredUrl."
        ),
    ]
}
