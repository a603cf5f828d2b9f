import Core
import Management
import Model
import Store

/// `biqli-edge in-app-escapes show|set`: the workspace's switches of the escapes from
/// in-app browsers (decision 0033 §5), through the API's rules (`WorkspaceOperations`).
enum InAppEscapesCommand {
    static let help = """
        Usage: biqli-edge in-app-escapes <show|set> [options]

        The escapes the edge may offer inside in-app browsers (Instagram, TikTok, ...), per
        in-app browser tag, or * for the others: playIntent and appIntent (Android), safari
        and alternateDomain (iOS). A link's own inAppEscapes wins over these. Works on the
        data directory of BIQLI_EDGE_DATA_DIR (or --config), also while `serve` runs there.

          in-app-escapes show [--json]    print the switches
          in-app-escapes set --switches JSON
                                          replace them whole: an object of tag to a list of
                                          escapes ([] allows none); {} for none (everything)

        Every subcommand takes --config FILE and --help.

        Examples:
          biqli-edge in-app-escapes set --switches '{"tiktok": [], "instagram": ["playIntent", "safari"]}'
          biqli-edge in-app-escapes set --switches '{}'
          biqli-edge in-app-escapes show --json
        """

    static func run(_ args: [String]) -> Int32 {
        CommandSetup.dispatch(args, command: "in-app-escapes", names: ["show", "set"], help: help, sharedHelp: true) {
            sub, rest in sub == "show" ? show(rest) : set(rest)
        }
    }

    static func show(_ args: [String]) -> Int32 {
        guard
            let options = ParsedOptions.parse(
                args, flags: ["json"], values: ["config"], command: "in-app-escapes show"),
            options.positional.isEmpty
        else {
            printError("biqli-edge in-app-escapes show: takes no arguments (see --help)")
            return 2
        }
        guard
            let configuration = CommandSetup.configuration(
                file: options.values["config"], command: "in-app-escapes show")
        else { return 2 }
        guard let store = CommandSetup.openStore(configuration, command: "in-app-escapes show") else { return 1 }
        defer { store.close() }
        let settings: InAppEscapeSettings
        do {
            settings = try store.reader(loop: 0).inAppEscapeSettings()
        } catch {
            printError("biqli-edge in-app-escapes show: \(error)")
            return 1
        }
        print(settings, json: options.flags.contains("json"))
        return 0
    }

    static func set(_ args: [String]) -> Int32 {
        guard
            let options = ParsedOptions.parse(
                args, flags: [], values: ["switches", "config"], command: "in-app-escapes set"),
            options.positional.isEmpty, let text = options.values["switches"]
        else {
            printError("biqli-edge in-app-escapes set: takes --switches JSON (see --help)")
            return 2
        }
        let switches: JSONValue
        do {
            switches = try JSONParser.parse(Array(text.utf8))
        } catch {
            printError("biqli-edge in-app-escapes set: --switches is not JSON: \(error)")
            return 2
        }
        guard
            let configuration = CommandSetup.configuration(
                file: options.values["config"], command: "in-app-escapes set")
        else { return 2 }
        guard let store = CommandSetup.openStore(configuration, command: "in-app-escapes set") else { return 1 }
        defer { store.close() }
        let now = Int64(Clock.nowMilliseconds())
        let result = Result { () throws(WriteError<OperationRefusal>) -> InAppEscapeSettings in
            try store.writeAndWait(refusing: OperationRefusal.self) { tx in
                try WorkspaceOperations.updateInAppEscapes(switches: switches, now: now, tx)
            }
        }
        switch result {
        case .success(let stored):
            print(stored, json: false)
            return 0
        case .failure(.refused(let refusal)):
            let problems = refusal.problems.map { "  \($0.field) \($0.rule)" }.joined(separator: "\n")
            printError("biqli-edge in-app-escapes set: nothing changed:\n\(problems)")
            return 2
        case .failure(.store(let error)):
            printError("biqli-edge in-app-escapes set: \(error)")
            return 1
        }
    }

    static func print(_ s: InAppEscapeSettings, json: Bool) {
        if json {
            printOut(
                JSONWriter(pretty: true).string(
                    .object([
                        ("switches", s.switches.json),
                        ("updatedAt", s.updatedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
                    ])))
            return
        }
        if s.switches.isEmpty {
            printOut("(no switches: every escape in every in-app browser)")
            return
        }
        for (tag, escapes) in s.switches.json.objectValue ?? [] {
            let names = (escapes.arrayValue ?? []).compactMap(\.stringValue)
            let padding = String(repeating: " ", count: max(1, 12 - tag.count))
            printOut(tag + padding + (names.isEmpty ? "(none)" : names.joined(separator: " ")))
        }
    }
}
