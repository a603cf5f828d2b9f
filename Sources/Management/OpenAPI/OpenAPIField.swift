import Core

/// One property of a resource, as answers show it and as create and update bodies take it.
///
/// A resource's answer schema and its body schemas are derived from one table of these,
/// so that a property's rules are written once and the schemas cannot disagree.
struct OpenAPIField {
    enum Variant { case read, create, update }

    let name: String
    let read: JSONValue
    /// nil: bodies cannot carry the field.
    let create: JSONValue?
    let update: JSONValue?

    init(_ name: String, read: JSONValue, create: JSONValue?, update: JSONValue?) {
        self.name = name
        self.read = read
        self.create = create
        self.update = update
    }

    /// The same rules in answers and bodies, except that a `readOnly` field is set by the
    /// server and so is not taken from bodies.
    init(_ name: String, _ schema: JSONValue) {
        // `.none`, not `nil`: JSONValue is ExpressibleByNilLiteral, so `nil` here would be JSON null.
        let input: JSONValue? = schema["readOnly"] == .bool(true) ? .none : schema
        self.init(name, read: schema, create: input, update: input)
    }

    /// A nested object (or null) whose body schemas are not its answer schema.
    static func nested(_ name: String, read: String, create: String, update: String) -> OpenAPIField {
        OpenAPIField(
            name, read: OpenAPIDocument.nullableRef(read), create: OpenAPIDocument.nullableRef(create),
            update: OpenAPIDocument.nullableRef(update))
    }

    func schema(_ variant: Variant) -> JSONValue? {
        switch variant {
        case .read: read
        case .create: create
        case .update: update
        }
    }
}

extension [OpenAPIField] {
    /// The object schema of `variant`. Answers always carry every field, so `.read`
    /// requires them all; a body requires `required`, or nothing (an update is a merge).
    func schema(_ variant: OpenAPIField.Variant, required: [String]? = nil, description: String? = nil) -> JSONValue {
        let properties = compactMap { field in field.schema(variant).map { (field.name, $0) } }
        return OpenAPIDocument.object(
            properties, required: variant == .read ? map(\.name) : required, description: description)
    }
}
