import Core

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
                "domain", ["type": "string", "pattern": .string(hostnamePattern), "description": "An existing domain."]),
            OpenAPIField(
                "key",
                [
                    "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
                    "description":
                        "Unique per domain (409 alias_taken). Reserved first segments are refused: api, m, _biqli, healthz, metrics, ... Generated (7 characters) when omitted at creation.",
                ]),
            OpenAPIField(
                "url",
                [
                    "type": "string", "format": "uri", "maxLength": 2048,
                    "description": "Web destination: desktop visitors, and mobile ones when the link is not mobile.",
                ]),
            OpenAPIField("enabled", boolean("A disabled link behaves as unknown and resolves to none. Default true.")),
            .nested("mobile", read: "MobilePayload", create: "MobilePayloadInput", update: "MobilePayloadPatch"),
            // A preview has no merge of its own: an update sends it as a create does.
            .nested("preview", read: "LinkPreview", create: "LinkPreviewInput", update: "LinkPreviewInput"),
        ] + timestamps

    static let mobilePayloadFields = [
        OpenAPIField("appId", ["type": "string", "maxLength": 64, "description": "An existing Mobile App."]),
        OpenAPIField("route", ["type": "string", "minLength": 1, "maxLength": 500, "pattern": "^/"]),
        OpenAPIField("referralCode", ["type": ["string", "null"], "minLength": 1, "maxLength": 128]),
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
        OpenAPIField("title", ["type": ["string", "null"], "minLength": 1, "maxLength": 300]),
        OpenAPIField("description", ["type": ["string", "null"], "minLength": 1, "maxLength": 1000]),
        OpenAPIField(
            "imageUrl",
            nullableURL(
                "Absolute https URL: it is shown inside pages. Other schemes: 422 url_blocked.", pattern: "^https://")),
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
