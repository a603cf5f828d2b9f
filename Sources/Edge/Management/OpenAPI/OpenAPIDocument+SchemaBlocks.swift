import Core

/// Patterns and small schemas that several resources share.
extension OpenAPIDocument {
    static let hostnamePattern =
        #"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"#

    /// The pattern of a resource id: its prefix and a ULID.
    static func idPattern(_ prefix: String) -> JSONValue { .string("^\(prefix)[0-9A-HJKMNP-TV-Z]{26}$") }

    static let timestamp: JSONValue = [
        "type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC.",
    ]

    static let timestamps = [OpenAPIField("createdAt", timestamp), OpenAPIField("updatedAt", timestamp)]

    static let counter: JSONValue = ["type": "integer", "minimum": 0]

    static func boolean(_ description: String) -> JSONValue {
        ["type": "boolean", "description": .string(description)]
    }

    /// An absolute URL or null; `pattern` narrows the scheme.
    static func nullableURL(_ description: String, pattern: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", ["string", "null"]), ("format", "uri"), ("maxLength", 2048)]
        if let pattern { members.append(("pattern", .string(pattern))) }
        return .object(members + [("description", .string(description))])
    }

    static func nullableRef(_ name: String) -> JSONValue { ["oneOf": [schemaRef(name), ["type": "null"]]] }

    /// A closed object (no other properties).
    static func object(_ properties: [(String, JSONValue)], required: [String]?, description: String? = nil)
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [
            ("type", "object"), ("additionalProperties", false), ("properties", .object(properties)),
        ]
        if let required { members.append(("required", .array(required.map(JSONValue.string)))) }
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    /// A closed object whose properties are all present, but those named in `optional`.
    static func record(_ properties: JSONValue, optional: [String] = [], description: String? = nil) -> JSONValue {
        let members = properties.objectValue ?? []
        return object(
            members, required: members.map(\.0).filter { !optional.contains($0) }, description: description)
    }

    /// A closed object of counters, one per name.
    static func counters(_ names: [String]) -> JSONValue { record(.object(names.map { ($0, counter) })) }

    static func enumeration(_ values: [String]) -> JSONValue { ["enum": .array(values.map(JSONValue.string))] }

    /// A page of `item`; `cursorIs` says what the cursor holds.
    static func list(of item: String, cursorIs: String) -> JSONValue {
        record([
            "data": ["type": "array", "items": schemaRef(item)],
            "nextCursor": [
                "type": ["string", "null"],
                "description": .string("Pass as cursor to get the next page; null on the last page. (\(cursorIs))"),
            ],
        ])
    }

    static func deleted(key: String) -> JSONValue { record([key: ["type": "string"], "deleted": ["const": true]]) }
}
