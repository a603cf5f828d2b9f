import HTTPMessages
import Management
import Model
import Store

/// `GET` and `POST /console/settings`: client-side click tracking's switch and hostnames,
/// written through the API's operation (`WorkspaceOperations`).
extension Console {
    func settingsPage(csrf: String, _ reader: any ClientClickReading) throws -> HTTPResponse {
        let settings = try reader.clientClickSettings()
        let model = SettingsPage.Model(
            enabled: settings.enabled, hostnames: settings.hostnames.joined(separator: "\n"),
            browserKeys: try reader.browserKeys().filter { $0.revokedAt == nil })
        return SettingsPage.render(model, csrf: csrf)
    }

    func updateSettings(_ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        let form = request.form ?? FormBody(pairs: [])
        let enabled = form["enabled"] != nil
        let typed = form["hostnames"] ?? ""
        // One per line (spaces and commas separate too): what a text area holds. A CRLF is one
        // Character in Swift, hence `isNewline`.
        let hostnames = typed.split(whereSeparator: { $0.isNewline || $0 == " " || $0 == "," })
            .map(String.init)
        let now = environment.now()
        return write(
            request,
            { tx in
                try WorkspaceOperations.updateClientClickSettings(enabled: enabled, hostnames: hostnames, now: now, tx)
            }
        ) { [self] result, reader in
            switch result {
            case .success(let settings):
                let model = SettingsPage.Model(
                    enabled: settings.enabled, hostnames: settings.hostnames.joined(separator: "\n"), saved: true,
                    browserKeys: (try? reader.browserKeys().filter { $0.revokedAt == nil }) ?? [])
                return SettingsPage.render(model, csrf: csrf)
            case .failure(.refused(.operation(let refusal))) where !refusal.problems.isEmpty:
                let model = SettingsPage.Model(
                    enabled: enabled, hostnames: typed,
                    errors: refusal.problems.map { Self.sentence($0, hostnames) },
                    browserKeys: (try? reader.browserKeys().filter { $0.revokedAt == nil }) ?? [])
                return SettingsPage.render(model, status: 422, csrf: csrf)
            case .failure(let error):
                return failure(error, csrf: csrf)
            }
        }
    }

    /// A problem as the form's reader knows it: `hostnames[2]` is the third name typed.
    static func sentence(_ problem: FieldProblem, _ hostnames: [String]) -> String {
        let field = problem.field
        if field.hasPrefix("hostnames["), let index = Int(field.dropFirst(10).dropLast()),
            hostnames.indices.contains(index)
        {
            return "\(hostnames[index]) \(problem.rule)"
        }
        return field == "hostnames" ? "The list \(problem.rule)" : "\(field) \(problem.rule)"
    }
}
