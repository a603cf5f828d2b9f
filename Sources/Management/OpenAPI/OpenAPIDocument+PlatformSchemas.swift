import Core

/// Schemas of the iOS and Android halves of a Mobile App.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let bundleIdPattern = #"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$"#

    static let iosFields = [
        OpenAPIField("teamId", ["type": "string", "pattern": "^[A-Z0-9]{10}$"]),
        OpenAPIField(
            "bundleId", ["type": "string", "maxLength": 155, "pattern": .string(bundleIdPattern)]),
        OpenAPIField("appStoreId", ["type": ["string", "null"], "pattern": "^[0-9]{1,20}$"]),
        OpenAPIField(
            "testFlightUrl",
            [
                "type": ["string", "null"],
                "pattern": .string("^" + anyCase("https://testflight.apple.com") + "/join/[A-Za-z0-9]{1,32}$"),
            ]),
        OpenAPIField("fallbackUrl", url("Where iOS visitors go when Deep View is off; null: the store.")),
        OpenAPIField("probabilisticFallback", boolean("Default false.")),
        OpenAPIField(
            "probabilisticWindowMinutes",
            ["type": "integer", "minimum": 1, "maximum": 60, "description": "Default 60."]),
        OpenAPIField("sdkEnabled", boolean("Default true.")),
        OpenAPIField("webCredentials", boolean("Adds the app to webcredentials in the AASA. Default false.")),
        OpenAPIField(
            "appClipBundleId",
            [
                "type": ["string", "null"], "maxLength": 155, "pattern": .string(bundleIdPattern),
                "description": "The App Clip's bundle ID (not the app's own).",
            ]),
    ]

    /// Bodies take fingerprints in any spelling; answers show the one they are stored in.
    static let fingerprints: OpenAPIField = {
        func schema(items: JSONValue) -> JSONValue {
            [
                "type": "array", "maxItems": 16, "items": items,
                "description":
                    "SHA-256 signing-certificate fingerprints in any common spelling (colons or not, any case, keytool's 'SHA256:' label); stored and returned upper-case colon-separated.",
            ]
        }
        let input = schema(items: ["type": "string"])
        return OpenAPIField(
            "sha256CertFingerprints",
            read: schema(items: ["type": "string", "pattern": "^([0-9A-F]{2}:){31}[0-9A-F]{2}$"]),
            create: input, update: input)
    }()

    static let androidFields = [
        OpenAPIField(
            "packageName",
            ["type": "string", "maxLength": 255, "pattern": #"^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$"#]),
        fingerprints,
        OpenAPIField(
            "playStoreUrl",
            [
                "type": ["string", "null"],
                "pattern": #"^https://play\.google\.com/store/apps/details"#,
                "description":
                    "Operator Play URL for this package; its referrer must leave room for the handoff token. null: the default Play URL.",
            ]),
        OpenAPIField("fallbackUrl", url("Where Android visitors go when the store cannot be used; stored normalised.")),
        OpenAPIField("sdkEnabled", boolean("Default true.")),
    ]

    static let platformSchemas: JSONValue = [
        "IOSPlatform": iosFields.schema(.read),
        "IOSPlatformInput": iosFields.schema(.create, required: ["teamId", "bundleId"]),
        "IOSPlatformPatch": iosFields.schema(.update),
        "AndroidPlatform": androidFields.schema(.read),
        "AndroidPlatformInput": androidFields.schema(.create, required: ["packageName"]),
        "AndroidPlatformPatch": androidFields.schema(.update),
    ]
}
