import Core

/// Schemas of Mobile Apps and their keys.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let appFields: [OpenAPIField] =
        [
            OpenAPIField("id", ["type": "string", "pattern": idPattern("biq_mapp_"), "readOnly": true]),
            OpenAPIField("name", text(100)),
            OpenAPIField("enabled", boolean("false stops new resolutions and store redirects. Default true.")),
            OpenAPIField("iconUrl", url("Shown on the Deep View.", httpsOnly: true)),
            .nested("ios", read: "IOSPlatform", create: "IOSPlatformInput", update: "IOSPlatformPatch"),
            .nested("android", read: "AndroidPlatform", create: "AndroidPlatformInput", update: "AndroidPlatformPatch"),
            OpenAPIField(
                "domains",
                [
                    "type": "array", "maxItems": 100, "uniqueItems": true,
                    "items": hostname(),
                    "description": "Hostnames of existing domains; the app is listed in their association files.",
                ]),
            OpenAPIField(
                "handoffLifetimeSeconds",
                ["type": "integer", "minimum": 300, "maximum": 604800, "description": "Default 86400."]),
            OpenAPIField(
                "keyOverlapSeconds",
                [
                    "type": "integer", "minimum": 0, "maximum": 2_592_000,
                    "description": "How long a rotated-out publishable key keeps working. Default 604800 (7 days).",
                ]),
            OpenAPIField(
                "publishableKeys",
                [
                    "type": "array", "readOnly": true, "items": schemaRef("PublishableKeySummary"),
                    "description": "The keys that work now (never the keys themselves).",
                ]),
        ] + timestamps

    /// The create rule that an app has at least one platform: `name` present as an object.
    static func platformRequired(_ name: String) -> JSONValue {
        ["required": [.string(name)], "properties": [name: ["type": "object"]]]
    }

    /// A publishable key in the one answer that shows it; a replay cannot show it again.
    static func shownOnce(_ description: String) -> JSONValue {
        ["type": ["string", "null"], "pattern": "^biqli_mobile_pk_", "description": .string(description)]
    }

    static func expiry(_ description: String) -> JSONValue {
        ["type": ["string", "null"], "format": "date-time", "readOnly": true, "description": .string(description)]
    }

    static let appSchemas: JSONValue = [
        "MobileApp": appFields.schema(.read),
        "MobileAppCreated":
            (appFields.prefix(1)
            + [
                OpenAPIField(
                    "publishableKey",
                    shownOnce("The app's first publishable key, shown this once (null in an idempotent replay)."))
            ] + appFields.dropFirst())
            .schema(.read),
        "MobileAppCreate": appFields.schema(
            .create, required: ["name"], description: "At least one of ios and android."
        )
        .adding("anyOf", [platformRequired("ios"), platformRequired("android")]),
        "MobileAppUpdate": appFields.schema(
            .update,
            description:
                "Given fields replace the stored ones; ios and android are merged one level deep; null clears. The merged app must still have ios or android (422 otherwise): a PATCH may clear one of them only when the other stays."
        ),
        "PublishableKeySummary": record([
            "id": ["type": "string", "pattern": "^pk_"],
            "hint": ["type": "string", "description": "The key's last four characters."],
            "createdAt": timestamp,
            "expiresAt": expiry("Set when the key was rotated out: it works until then."),
        ]),
        "KeyRotation": record([
            "publishableKey": shownOnce("The new key, shown this once (null in an idempotent replay)."),
            "appId": ["type": "string", "pattern": idPattern("biq_mapp_")],
            "publishableKeyId": ["type": "string", "pattern": "^pk_"],
            "hint": ["type": "string"],
            "previousKeyExpiresAt": expiry(
                "Until when the previous key keeps working (now + keyOverlapSeconds); null when there was none."),
        ]),
        "MobileAppList": list(of: "MobileApp", cursorIs: "the last app id"),
    ]
}
