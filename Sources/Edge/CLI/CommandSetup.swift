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
}
