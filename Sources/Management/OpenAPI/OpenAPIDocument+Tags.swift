import Core
import Model

/// The tag paths and schemas (issue 35): the workspace's labels of links.
///
/// Part of the OpenAPI 3.1 document that `OpenAPIDocument` assembles;
/// `ManagementOpenAPITests` and the black-box test `test_management_openapi.py` keep it
/// true to the routes and the answers.
extension OpenAPIDocument {
    static let tagFields: [OpenAPIField] =
        [
            OpenAPIField("id", ["type": "string", "pattern": idPattern(Identifier.tagPrefix), "readOnly": true]),
            OpenAPIField(
                "name",
                [
                    "type": "string", "minLength": 1, "maxLength": .int(Int64(Tag.maxNameLength)),
                    "pattern":
                        #"^[^\u0000-\u001F\u007F-\u009F ]([^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u001F\u007F-\u009F ])?$"#,
                    "description": "Unique in the workspace ignoring case (409 tag_name_taken).",
                ]),
            OpenAPIField(
                "color",
                [
                    "type": "string", "enum": .array(TagColor.allCases.map { .string($0.rawValue) }),
                    "description": "Default gray.",
                ]),
        ] + timestamps

    static let tagSchemas: JSONValue = [
        "Tag": tagFields.schema(.read),
        "TagCreate": tagFields.schema(.create, required: ["name"]),
        "TagUpdate": tagFields.schema(.update, description: "Given fields replace the stored ones."),
        "TagList": list(of: "Tag", cursorIs: "the last tag id"),
    ]

    static let tagId = pathParameter(
        "id", ["type": "string", "pattern": idPattern(Identifier.tagPrefix)], "The tag's id.")

    static let tagPaths: JSONValue = [
        "/api/v1/tags": [
            "get": operation(
                "tags.list", tag: "Tags", summary: "List tags", description: "Ordered by id (creation order).",
                parameters: pageParameters, answer: 200, "A page of tags.", schema: schemaRef("TagList"),
                errors: .listing),
            "post": operation(
                "tags.create", tag: "Tags", summary: "Create a tag", description: "Needs links.write.", writes: true,
                answer: 201, "The tag.", schema: schemaRef("Tag"), body: "TagCreate", errors: .creating,
                more: ["409": [.tagNameTaken]]),
        ],
        "/api/v1/tags/{id}": [
            "get": operation(
                "tags.get", tag: "Tags", summary: "Get a tag", parameters: [tagId], answer: 200, "The tag.",
                schema: schemaRef("Tag"), errors: .reading),
            "patch": operation(
                "tags.update", tag: "Tags", summary: "Update a tag", parameters: [tagId], writes: true,
                answer: 200, "The tag.", schema: schemaRef("Tag"), body: "TagUpdate", errors: .changing,
                more: ["409": [.tagNameTaken]]),
            "delete": operation(
                "tags.delete", tag: "Tags", summary: "Delete a tag",
                description: "Takes the tag off its links.", parameters: [tagId], writes: true, answer: 200,
                "Deleted.", schema: schemaRef("DeletedResource"), errors: .deleting),
        ],
    ]
}
