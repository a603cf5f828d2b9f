import Model
import Store

/// What the store-touching commands (`keys`, `apply`, `check`) share with `serve`: the
/// same configuration loading (`--config FILE` and `BIQLI_EDGE_*`, the environment
/// winning) and the same SQLite file. SQLite's WAL lets them run beside a serving
/// edge, whose writer notices their commits within a second (`data_version` poll) and
/// drops its caches.
enum CommandSetup {
    /// The configuration, or nil after printing why (the caller exits with 2).
    static func configuration(file: String?, command: String) -> EdgeConfiguration? {
        do {
            return try EdgeConfiguration.load(file: file, environment: EdgeCommand.environment())
        } catch {
            printError("biqli-edge \(command): \(error)")
            return nil
        }
    }

    /// Opens (creating if needed) the store of `configuration` (the SQLite file, or the
    /// PostgreSQL database of `BIQLI_EDGE_DATABASE_URL`), or nil after printing why.
    static func openStore(_ configuration: EdgeConfiguration, command: String) -> (any Store)? {
        if configuration.database == nil, !makeDirectories(configuration.dataDirectory) {
            printError("biqli-edge \(command): cannot create the data directory \(configuration.dataDirectory)")
            return nil
        }
        do {
            return try StoreBackend.open(configuration, readers: 1, log: nil).store
        } catch {
            printError("biqli-edge \(command): \(error)")
            return nil
        }
    }

    /// True when `args` asks for help.
    static func wantsHelp(_ args: [String]) -> Bool { args.contains("--help") || args.contains("-h") }

    /// `biqli-edge COMMAND SUB ARGS...`: runs `run(SUB, ARGS)` when SUB is one of `names`.
    /// Without a subcommand, with `help`, or (`sharedHelp`: the subcommands have no help of
    /// their own) with `--help` after one, prints `help` (exit 0; 2 when the subcommand is
    /// missing, saying so); an unknown subcommand is exit 2.
    static func dispatch(
        _ args: [String], command: String, names: [String], help: String, sharedHelp: Bool,
        run: (String, [String]) -> Int32
    ) -> Int32 {
        guard let sub = args.first, !sub.hasPrefix("-") else {
            if wantsHelp(args) {
                printOut(help)
                return 0
            }
            let listed = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
            printError("biqli-edge \(command): missing subcommand (\(listed))\n\n\(help)")
            return 2
        }
        let rest = Array(args.dropFirst())
        if sub == "help" || (sharedHelp && wantsHelp(rest)) {
            printOut(help)
            return 0
        }
        guard names.contains(sub) else {
            printError("biqli-edge \(command): unknown subcommand \"\(sub)\"\n\n\(help)")
            return 2
        }
        return run(sub, rest)
    }
}
