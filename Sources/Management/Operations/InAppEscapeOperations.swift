import Core
import Model
import Store

/// `/api/v1/in-app-escapes`: the workspace's switches of the escapes from in-app browsers
/// (issue 36, decision 0033 §5), which a link's own `inAppEscapes` overrides. Scopes
/// `in_app_escapes.read` and `in_app_escapes.write`.
enum InAppEscapeOperations {
    static func get(_ call: ManagementCall, _ reader: any InAppEscapeReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, settingsJSON(try reader.inAppEscapeSettings()))
    }

    /// `switches` replaced whole (`{}` or null: none, every escape everywhere).
    static func update(_ call: ManagementCall, _ tx: any InAppEscapeWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        var settings = try tx.inAppEscapeSettings()
        try InAppEscapeSettingsInput.apply(call.bodyObject, to: &settings)
        settings.updatedAt = call.now
        try tx.putInAppEscapeSettings(settings)
        return ManagementAnswer(200, settingsJSON(settings))
    }

    static func settingsJSON(_ s: InAppEscapeSettings) -> JSONValue {
        .object([
            ("switches", s.switches.json),
            ("updatedAt", s.updatedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
        ])
    }
}

/// The body of `PATCH /api/v1/in-app-escapes`: `switches` (`InAppEscapesInput`), nothing else.
enum InAppEscapeSettingsInput {
    static func apply(_ body: JSONValue, to settings: inout InAppEscapeSettings) throws(ManagementError) {
        var problems = FieldProblems()
        guard var input = InputObject(body, path: "", problems: &problems) else { throw .invalid(problems.list) }
        if input.has("switches") {
            switch input.value("switches") {
            case nil, .null?:
                settings.switches = InAppEscapeSwitches()
            case let value?:
                if let switches = InAppEscapesInput.decode(value, field: "switches", problems: &problems) {
                    settings.switches = switches
                }
            }
        }
        input.reportUnread(problems: &problems)
        try problems.check()
    }
}
