import Core
import Model
import Visit

/// The escapes from in-app browsers (issue 36, decision 0033 §5): the workspace's switches
/// at `/api/v1/in-app-escapes` and their schema, which a link's `inAppEscapes` shares.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box tests keep it true to the routes and answers.
extension OpenAPIDocument {
    static let inAppEscapePaths: JSONValue = [
        "/api/v1/in-app-escapes": [
            "get": operation(
                "inAppEscapes.get", tag: "In-app browsers", summary: "Get the workspace's switches",
                description:
                    "Which escapes from in-app browsers the edge may offer, per in-app browser tag (or * for the others); a link's own inAppEscapes wins. Needs in_app_escapes.read.",
                answer: 200, "The settings.", schema: schemaRef("InAppEscapeSettings"), errors: .listing),
            "patch": operation(
                "inAppEscapes.update", tag: "In-app browsers", summary: "Change the workspace's switches",
                description:
                    "switches replaced whole ({} or null: none, every escape everywhere). Needs in_app_escapes.write.",
                writes: true, answer: 200, "The settings.", schema: schemaRef("InAppEscapeSettings"),
                body: "InAppEscapeSettingsUpdate",
                errors: [
                    .badRequest, .unauthorized, .forbidden, .conflict, .contentTooLarge, .uriTooLong, .unprocessable,
                    .internalError,
                ]),
        ]
    ]

    static let inAppEscapeSchemas: JSONValue = [
        "InAppEscapeSwitches": [
            "type": "object", "maxProperties": .int(Int64(InAppEscapeSwitches.maxEntries)),
            "propertyNames": [
                "enum": .array(
                    (VisitorClassifier.inAppBrowserTags + [InAppEscapeSwitches.anyApp]).map(JSONValue.string))
            ],
            "additionalProperties": [
                "type": "array",
                "items": ["enum": .array(InAppEscape.allCases.map { .string($0.rawValue) })],
            ],
            "description":
                "For an in-app browser's tag (as byInAppBrowser counts it), or * for every tag not named, the escapes allowed: playIntent and appIntent (Android: the Play Store app's intent, the app's own intent), safari and alternateDomain (iOS Deep View: Open in Safari, Open in the app through the domain's alternate hostname). [] allows none; a tag not named follows *, then the workspace, then everything. An unknown tag or escape is 422 validation_error naming it.",
        ],
        "InAppEscapeSettings": record([
            "switches": schemaRef("InAppEscapeSwitches"),
            "updatedAt": nullableTimestamp,
        ]),
        "InAppEscapeSettingsUpdate": object(
            [("switches", nullableRef("InAppEscapeSwitches"))], required: []),
    ]
}
