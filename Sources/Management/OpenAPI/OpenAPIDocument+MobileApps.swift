import Core

/// The Mobile App paths.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let appLinks: JSONValue = .object(
        pathLinks(
            "id", to: "id",
            [
                ("GetApp", "mobileApps.get"), ("UpdateApp", "mobileApps.update"), ("DeleteApp", "mobileApps.delete"),
                ("RotateAppKey", "mobileApps.rotateKey"), ("AppAnalytics", "mobileApps.analytics"),
            ])
            + [
                (
                    "CreateMobileLink",
                    bodyLink("links.create", ["mobile": ["appId": "$response.body#/id", "route": "/"]])
                )
            ])

    static let mobileAppPaths: JSONValue = [
        "/api/v1/mobile-apps": [
            "get": operation(
                "mobileApps.list", tag: "Mobile Apps", summary: "List Mobile Apps",
                description: "Ordered by id, paginated.", parameters: pageParameters,
                answer: 200, "A page of apps.", schema: schemaRef("MobileAppList"), errors: .listing),
            "post": operation(
                "mobileApps.create", tag: "Mobile Apps", summary: "Create a Mobile App",
                description:
                    "Returns the app with its first publishable key (biqli_mobile_pk_...), shown this once. The app's domains must exist; an iOS app ID or Android package may appear once per domain; each association file stays within 128 KiB.",
                writes: true, answer: 201, "The app and its first publishable key.",
                schema: schemaRef("MobileAppCreated"), links: appLinks, body: "MobileAppCreate", errors: .creating,
                more: ["422": [.urlBlocked]]),
        ],
        "/api/v1/mobile-apps/{id}": [
            "get": operation(
                "mobileApps.get", tag: "Mobile Apps", summary: "Get a Mobile App", parameters: [parameterRef("AppId")],
                answer: 200, "The app.", schema: schemaRef("MobileApp"), errors: .reading),
            "patch": operation(
                "mobileApps.update", tag: "Mobile Apps", summary: "Update a Mobile App",
                description: "Merge of the given fields; ios and android one level deep.",
                parameters: [parameterRef("AppId")], writes: true,
                answer: 200, "The app.", schema: schemaRef("MobileApp"), body: "MobileAppUpdate", errors: .changing,
                more: ["422": [.urlBlocked]]),
            "delete": operation(
                "mobileApps.delete", tag: "Mobile Apps", summary: "Delete a Mobile App",
                description:
                    "Revokes its publishable keys, removes it from the association files of its domains, and turns its links into plain web links (a link.updated webhook for each).",
                parameters: [parameterRef("AppId")], writes: true,
                answer: 200, "Deleted.", schema: schemaRef("DeletedResource"), errors: .deleting),
        ],
        "/api/v1/mobile-apps/{id}/keys/rotate": [
            "post": operation(
                "mobileApps.rotateKey", tag: "Mobile Apps", summary: "Rotate the publishable key",
                description:
                    "Issues a new publishable key (shown this once). Every key that had no end now works until now + keyOverlapSeconds. Takes no body.",
                parameters: [parameterRef("AppId")], writes: true,
                answer: 200, "The new key.", schema: schemaRef("KeyRotation"), errors: .changing)
        ],
        "/api/v1/mobile-apps/{id}/analytics": [
            "get": operation(
                "mobileApps.analytics", tag: "Mobile Apps", summary: "Mobile App analytics",
                description:
                    "Clicks by platform and kind, opens by match type and first-open flag, and the 50 most recent opens.",
                parameters: [
                    parameterRef("AppId"),
                    integerQuery("days", minimum: 1, maximum: 365, default: 30, "UTC days, today included."),
                ],
                answer: 200, "The numbers.", schema: schemaRef("AppAnalytics"), errors: .reading)
        ],
    ]
}
