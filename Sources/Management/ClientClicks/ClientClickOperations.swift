import Core
import Model
import Store

/// `/api/v1/client-click-tracking` (the workspace's settings of client-side click
/// tracking) and `/api/v1/browser-keys` (the keys a page sends to `track/click`):
/// decision 0027. Scopes `client_clicks.read` and `client_clicks.write`.
enum ClientClickOperations {
    // MARK: settings

    static func getSettings(_ call: ManagementCall, _ reader: any ClientClickReading, _ env: ManagementEnvironment)
        throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, settingsJSON(try reader.clientClickSettings()))
    }

    /// A merge of `enabled` and `hostnames` (the whole list, replaced) over the stored settings.
    static func updateSettings(_ call: ManagementCall, _ tx: any ClientClickWriting, _ env: ManagementEnvironment)
        throws -> ManagementAnswer
    {
        var settings = try tx.clientClickSettings()
        try ClientClickSettingsInput.apply(call.bodyObject, to: &settings)
        settings.updatedAt = call.now
        try tx.putClientClickSettings(settings)
        return ManagementAnswer(200, settingsJSON(settings))
    }

    static func settingsJSON(_ s: ClientClickSettings) -> JSONValue {
        .object([
            ("enabled", .bool(s.enabled)),
            ("hostnames", .array(s.hostnames.map { .string($0) })),
            ("updatedAt", s.updatedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
        ])
    }

    // MARK: browser keys

    static func listKeys(_ call: ManagementCall, _ reader: any ClientClickReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let (items, next) = page.page(try reader.browserKeys().sorted { $0.id < $1.id }) { $0.id }
        return ManagementAnswer(200, ResourceJSON.page(items.map { keyJSON($0, key: nil) }, nextCursor: next))
    }

    /// 201 with the key, shown this once; a replay of the same request answers the record
    /// with `key: null` (the key is never stored in clear).
    static func createKey(_ call: ManagementCall, _ tx: any ClientClickWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        var problems = FieldProblems()
        guard var input = InputObject(call.bodyObject, path: "", problems: &problems) else {
            throw ManagementError.invalid(problems.list)
        }
        let name = input.string("name", required: true, maxLength: 64, problems: &problems)
        input.reportUnread(problems: &problems)
        if let name, let rule = WorkspaceKeys.nameProblem(name) { problems.add("name", rule) }
        try problems.check()
        let (record, key) = try BrowserKeys.create(name: name ?? "", in: tx, now: call.now)
        return ManagementAnswer(201, keyJSON(record, key: key), replayBody: keyJSON(record, key: nil))
    }

    /// Revokes the key (200 with its record, `revokedAt` set); a revoked key stays listed.
    static func revokeKey(_ call: ManagementCall, _ tx: any ClientClickWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let id = call.parameter("id")
        let (outcome, record) = try BrowserKeys.revoke(id: id, in: tx, now: call.now)
        guard outcome != .notFound, let record else { throw ManagementError.notFound("No browser key \(id).") }
        return ManagementAnswer(200, keyJSON(record, key: nil))
    }

    static func keyJSON(_ k: BrowserKeyRecord, key: String?) -> JSONValue {
        .object([
            ("id", .string(k.id)), ("name", .string(k.name)), ("hint", .string(k.hint)),
            ("key", key.map { .string($0) } ?? .null),
            ("createdAt", .string(Timestamp.format(milliseconds: k.createdAt))),
            ("revokedAt", k.revokedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
        ])
    }
}

/// The body of `PATCH /api/v1/client-click-tracking`: `enabled` (true or false) and
/// `hostnames` (the whole list: exact names and `*.` wildcards, `AllowedHostnames`);
/// either may be absent, nothing else may be there.
enum ClientClickSettingsInput {
    static func apply(_ body: JSONValue, to settings: inout ClientClickSettings) throws(ManagementError) {
        var problems = FieldProblems()
        guard var input = InputObject(body, path: "", problems: &problems) else { throw .invalid(problems.list) }
        if input.has("enabled") {
            settings.enabled = input.bool("enabled", default: settings.enabled, problems: &problems)
        }
        if input.has("hostnames"), let items = input.array("hostnames", maxItems: .max, problems: &problems) {
            var names: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let name) = item else {
                    problems.add("hostnames[\(i)]", "must be a string")
                    continue
                }
                names.append(name)
            }
            // Indexes of the list's rules are the items' own only when every item is a string.
            for (index, rule) in names.count == items.count ? AllowedHostnames.problems(names) : [] {
                problems.add(index.map { "hostnames[\($0)]" } ?? "hostnames", rule)
            }
            settings.hostnames = names
        }
        input.reportUnread(problems: &problems)
        try problems.check()
    }
}
