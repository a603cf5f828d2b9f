import Core
import Management
import Model
import Store

/// `biqli-edge client-clicks show|set`: the workspace's settings of client-side click
/// tracking (decision 0027), through the API's rules (`WorkspaceOperations`).
enum ClientClicksCommand {
    static let help = """
        Usage: biqli-edge client-clicks <show|set> [options]

        Client-side click tracking: whether POST /api/v1/track/click answers, and the
        hostnames whose pages may call it (analytics-v3.js with a browser key, made by
        `biqli-edge keys create --browser`). Works on the data directory of
        BIQLI_EDGE_DATA_DIR (or --config), also while `serve` runs there.

          client-clicks show [--json]     print the settings
          client-clicks set [--enabled on|off] [--hostnames LIST]
                                          change them; LIST is the whole list (names separated
                                          by commas or spaces; "" for none): exact hostnames
                                          (shop.example.com), wildcards (*.example.com: every
                                          name under it), localhost; at most 50

        Every subcommand takes --config FILE and --help.

        Examples:
          biqli-edge client-clicks set --enabled on --hostnames shop.example.com,*.shop.example.com
          biqli-edge client-clicks set --enabled off
          biqli-edge client-clicks show --json
        """

    static func run(_ args: [String]) -> Int32 {
        CommandSetup.dispatch(args, command: "client-clicks", names: ["show", "set"], help: help, sharedHelp: true) {
            sub, rest in sub == "show" ? show(rest) : set(rest)
        }
    }

    static func show(_ args: [String]) -> Int32 {
        guard
            let options = ParsedOptions.parse(args, flags: ["json"], values: ["config"], command: "client-clicks show"),
            options.positional.isEmpty
        else {
            printError("biqli-edge client-clicks show: takes no arguments (see --help)")
            return 2
        }
        guard
            let configuration = CommandSetup.configuration(
                file: options.values["config"], command: "client-clicks show")
        else { return 2 }
        guard let store = CommandSetup.openStore(configuration, command: "client-clicks show") else { return 1 }
        defer { store.close() }
        let settings: ClientClickSettings
        do {
            settings = try store.reader(loop: 0).clientClickSettings()
        } catch {
            printError("biqli-edge client-clicks show: \(error)")
            return 1
        }
        print(settings, json: options.flags.contains("json"))
        return 0
    }

    static func set(_ args: [String]) -> Int32 {
        guard
            let options = ParsedOptions.parse(
                args, flags: [], values: ["enabled", "hostnames", "config"], command: "client-clicks set"),
            options.positional.isEmpty
        else {
            printError("biqli-edge client-clicks set: takes --enabled and --hostnames only (see --help)")
            return 2
        }
        var enabled: Bool?
        switch options.values["enabled"] {
        case nil: break
        case "on", "true": enabled = true
        case "off", "false": enabled = false
        case let other?:
            printError("biqli-edge client-clicks set: --enabled must be on or off, not \"\(other)\"")
            return 2
        }
        let hostnames = options.values["hostnames"].map {
            $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        }
        guard enabled != nil || hostnames != nil else {
            printError("biqli-edge client-clicks set: give --enabled, --hostnames or both (see --help)")
            return 2
        }
        guard
            let configuration = CommandSetup.configuration(
                file: options.values["config"], command: "client-clicks set")
        else { return 2 }
        guard let store = CommandSetup.openStore(configuration, command: "client-clicks set") else { return 1 }
        defer { store.close() }
        let now = Int64(Clock.nowMilliseconds())
        let settings: ClientClickSettings
        let wanted = enabled
        let result = Result { () throws(WriteError<OperationRefusal>) -> ClientClickSettings in
            try store.writeAndWait(refusing: OperationRefusal.self) { tx in
                let current = try tx.clientClickSettings()
                return try WorkspaceOperations.updateClientClickSettings(
                    enabled: wanted ?? current.enabled, hostnames: hostnames ?? current.hostnames, now: now, tx)
            }
        }
        switch result {
        case .success(let stored):
            settings = stored
        case .failure(.refused(let refusal)):
            let problems = refusal.problems.map { "  \($0.field) \($0.rule)" }.joined(separator: "\n")
            printError("biqli-edge client-clicks set: nothing changed:\n\(problems)")
            return 2
        case .failure(.store(let error)):
            printError("biqli-edge client-clicks set: \(error)")
            return 1
        }
        print(settings, json: false)
        return 0
    }

    static func print(_ s: ClientClickSettings, json: Bool) {
        if json {
            printOut(
                JSONWriter(pretty: true).string(
                    .object([
                        ("enabled", .bool(s.enabled)), ("hostnames", .array(s.hostnames.map { .string($0) })),
                        ("updatedAt", s.updatedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
                    ])))
            return
        }
        printOut("enabled    \(s.enabled ? "on" : "off")")
        printOut("hostnames  \(s.hostnames.isEmpty ? "(none)" : s.hostnames.joined(separator: " "))")
    }
}
