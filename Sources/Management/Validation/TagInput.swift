import Core
import Model

/// A tag as a request states it (`/api/v1/tags`): a name of 1 to 50 characters and a
/// colour of the fixed palette (default gray). A PATCH is the stored tag merged with it.
enum TagInput {
    static let readOnly: Set<String> = ["id", "createdAt", "updatedAt"]

    static func decode(_ json: JSONValue, id: String, existing: Tag?, now: Int64) throws(ManagementError) -> Tag {
        var problems = FieldProblems()
        guard var input = InputObject(json, path: "", problems: &problems) else { throw .invalid(problems.list) }
        let name = input.string("name", required: true, maxLength: Tag.maxNameLength, problems: &problems)
        if let name,
            name.trimmingCharacters(in: .whitespaces).isEmpty || name != name.trimmingCharacters(in: .whitespaces)
        {
            problems.add("name", "must not start or end with a space")
        }
        var color = TagColor.gray
        switch input.value("color") {
        case nil, .null?: break
        case .string(let s)? where TagColor(rawValue: s) != nil: color = TagColor(rawValue: s) ?? .gray
        default:
            problems.add("color", "must be one of " + TagColor.allCases.map(\.rawValue).joined(separator: ", "))
        }
        input.reportUnread(readOnly: readOnly, problems: &problems)
        try problems.check()
        return Tag(
            id: id, name: name ?? "", color: color, createdAt: existing?.createdAt ?? now, updatedAt: now)
    }

    static func writable(_ tag: Tag) -> JSONValue {
        .object([("name", .string(tag.name)), ("color", .string(tag.color.rawValue))])
    }

    static func json(_ tag: Tag) -> JSONValue {
        .object([
            ("id", .string(tag.id)), ("name", .string(tag.name)), ("color", .string(tag.color.rawValue)),
            ("createdAt", ResourceJSON.time(tag.createdAt)), ("updatedAt", ResourceJSON.time(tag.updatedAt)),
        ])
    }
}
