import Core
import Model

/// Schemas of links and their mobile payload and preview.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let linkFields: [OpenAPIField] =
        [
            OpenAPIField("id", ["type": "string", "pattern": idPattern("biq_lnk_"), "readOnly": true]),
            OpenAPIField(
                "shortUrl",
                ["type": "string", "format": "uri", "readOnly": true, "description": "https://<domain>/<key>"]),
            OpenAPIField(
                "domain", hostname("An existing domain.")),
            OpenAPIField(
                "key",
                [
                    "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
                    "not": ["pattern": .string(reservedKeyPattern)],
                    "description":
                        "Unique per domain (409 alias_taken). Reserved first segments are refused: api, m, _biqli, healthz, metrics, ... Generated (7 characters) when omitted at creation.",
                ]),
            OpenAPIField(
                "url",
                url("Web destination: desktop visitors, and mobile ones when the link is not mobile.", nullable: false)),
            OpenAPIField("enabled", boolean("A disabled link behaves as unknown and resolves to none. Default true.")),
            .nested("mobile", read: "MobilePayload", create: "MobilePayloadInput", update: "MobilePayloadPatch"),
            // A preview has no merge of its own: an update sends it as a create does.
            .nested("preview", read: "LinkPreview", create: "LinkPreviewInput", update: "LinkPreviewInput"),
            OpenAPIField(
                "trackConversions",
                nullableBoolean(
                    "Conversion tracking: a web redirect (desktop, and mobile visitors sent to the web URL) "
                        + "carries the click's id as bq_id=<click id>, written before the answer. "
                        + "null: the domain's trackConversions.")),
        ] + linkOptionFields + timestamps

    /// The keys `EdgeRoutes` keeps for itself, in any case (`LinkKeyRule.isReserved`).
    static let reservedKeyPattern = "^(" + LinkKey.reserved.sorted().map(anyCase).joined(separator: "|") + ")$"

    static let mobilePayloadFields = [
        OpenAPIField(
            "appId", ["type": "string", "pattern": idPattern("biq_mapp_"), "description": "An existing Mobile App."]),
        OpenAPIField("route", text(500, pattern: #"^/[^\u0000-\u001F\u007F-\u009F]*$"#)),
        OpenAPIField("referralCode", text(128, nullable: true)),
        OpenAPIField(
            "metadata",
            [
                "type": "object", "maxProperties": 20, "additionalProperties": true,
                "description":
                    "Safe metadata: at most 20 top-level keys, 3 levels, 4 KB compact, strings at most 1000 characters, no key naming a sensitive field (password, secret, token, auth, cookie, card, email, phone, health, session, credential, passport, iban...; pin, dob, ssn, cvv as words). Default {}.",
            ]),
        OpenAPIField(
            "dynamicKeys",
            [
                "type": "array", "maxItems": 20, "uniqueItems": true,
                "items": ["type": "string", "pattern": "^[a-z][a-z0-9_]{0,39}$"],
            ]),
        OpenAPIField("deepView", boolean("The link's Deep View switch. Default true.")),
    ]

    static let linkPreviewFields = [
        OpenAPIField("title", text(300, nullable: true)),
        OpenAPIField("description", text(1000, nullable: true, pattern: multiLinePattern)),
        OpenAPIField(
            "imageUrl",
            url("Absolute https URL: it is shown inside pages.", httpsOnly: true)),
    ]

    static let linkSchemas: JSONValue = [
        "Link": linkFields.schema(.read),
        "LinkCreate": linkFields.schema(.create, required: ["domain", "url"]),
        "LinkUpdate": linkFields.schema(
            .update,
            description:
                "Given fields replace the stored ones; mobile and preview are merged one level deep (metadata and dynamicKeys are replaced whole); null clears."
        ),
        "MobilePayload": mobilePayloadFields.schema(.read),
        "MobilePayloadInput": mobilePayloadFields.schema(.create, required: ["appId", "route"]),
        "MobilePayloadPatch": mobilePayloadFields.schema(.update),
        "LinkPreview": linkPreviewFields.schema(.read),
        "LinkPreviewInput": linkPreviewFields.schema(.create),
        "LinkList": list(of: "Link", cursorIs: "the last link id"),
    ]
}
