#if canImport(Glibc)
import Glibc
#endif

/// The command line: `serve`, `keys`, `client-clicks`, `in-app-escapes`, `apply`, `check`,
/// `backup`, `restore`, `migrate-store`, `nodes`, `webhook-key`.
/// Exit codes: 0 ok, 1 failure, 2 usage.
enum EdgeCommand {
    static var version: String { EdgeVersion.current }

    static let usage = """
        biqli-edge: a self-hostable redirect and Deep View edge for mobile deep links

        Usage:
          biqli-edge serve [--config FILE] [--demo]   run the edge
          biqli-edge keys create --name NAME          create a workspace secret key (printed once)
          biqli-edge keys list                        list workspace keys
          biqli-edge keys revoke ID                   revoke a workspace key
          biqli-edge client-clicks show|set           client-side click tracking: switch, allowed hostnames
          biqli-edge in-app-escapes show|set          the escapes offered inside in-app browsers, per app
          biqli-edge apply FILE.json                  import domains, apps and links (idempotent)
          biqli-edge check [--config FILE]            validate configuration, certificates, association files
          biqli-edge backup --to FILE                 copy the SQLite store and secrets into FILE, while serving
          biqli-edge restore --from FILE              check a backup and put it into an empty data directory
          biqli-edge migrate-store --to URL           copy the SQLite store into an empty PostgreSQL database
          biqli-edge nodes [--all] [--json]           list the edges sharing the PostgreSQL database
          biqli-edge webhook-key status|rotate|reseal the key that seals the webhooks' signing secrets
          biqli-edge version                          print the version

        Every command takes --help. Settings come from --config FILE (JSON) and BIQLI_EDGE_*
        environment variables (the environment wins); see `biqli-edge serve --help`.

        Examples:
          biqli-edge serve --demo
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli biqli-edge keys create --name ci
          biqli-edge apply links.json
          biqli-edge backup --to /var/backups/biqli-edge/edge-$(date +%F).tar
          biqli-edge migrate-store --to postgresql://edge@db.internal/biqli
        """

    static func run(_ args: [String]) -> Int32 {
        guard let command = args.first else {
            printError(usage)
            return 2
        }
        let rest = Array(args.dropFirst())
        switch command {
        case "serve": return ServeCommand.run(rest)
        case "keys": return KeysCommand.run(rest)
        case "client-clicks": return ClientClicksCommand.run(rest)
        case "in-app-escapes": return InAppEscapesCommand.run(rest)
        case "apply": return ApplyCommand.run(rest)
        case "check": return CheckCommand.run(rest)
        case "backup": return BackupCommand.run(rest)
        case "restore": return RestoreCommand.run(rest)
        case "migrate-store": return MigrateStoreCommand.run(rest)
        case "nodes": return NodesCommand.run(rest)
        case "webhook-key": return WebhookKeyCommand.run(rest)
        case "version", "--version":
            printOut("biqli-edge \(version)")
            return 0
        case "help", "--help", "-h":
            printOut(usage)
            return 0
        default:
            printError("biqli-edge: unknown command \"\(command)\"\n\n\(usage)")
            return 2
        }
    }

    /// Current environment as a dictionary.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            p += 1
        }
        return result
    }
}

/// Minimal option parsing shared by the commands: `--flag`, `--name value`, `--name=value`.
struct ParsedOptions {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    /// Every value of each option, in order (`values` keeps the last): `--scope a --scope b`.
    var allValues: [String: [String]] = [:]
    var positional: [String] = []

    /// Nil (after printing why) when an option is unknown or lacks its value.
    static func parse(
        _ args: [String], flags allowedFlags: Set<String>, values allowedValues: Set<String>, command: String
    )
        -> ParsedOptions?
    {
        var result = ParsedOptions()
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            if arg == "--" {
                result.positional.append(contentsOf: args[i...])
                break
            }
            guard arg.hasPrefix("--") else {
                result.positional.append(arg)
                continue
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if allowedFlags.contains(name) && inlineValue == nil {
                result.flags.insert(name)
            } else if allowedValues.contains(name) {
                if let v = inlineValue {
                    result.values[name] = v
                    result.allValues[name, default: []].append(v)
                } else if i < args.count {
                    result.values[name] = args[i]
                    result.allValues[name, default: []].append(args[i])
                    i += 1
                } else {
                    printError("biqli-edge \(command): --\(name) needs a value (see --help)")
                    return nil
                }
            } else {
                printError("biqli-edge \(command): unknown option --\(name) (see --help)")
                return nil
            }
        }
        return result
    }
}
