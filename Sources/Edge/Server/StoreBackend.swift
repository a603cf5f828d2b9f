import Core
import Store

#if canImport(Glibc)
import Glibc
#endif

/// The store the configuration asks for: the SQLite file in the data directory
/// (default), or PostgreSQL (`BIQLI_EDGE_DATABASE_URL`). Everything above talks to
/// `store`; only operations (metrics, health, start-up) look at the backend itself.
enum StoreBackend: Sendable {
    case sqlite(SQLiteStore)
    case postgresql(PGStore)

    var store: any Store {
        switch self {
        case .sqlite(let s): return s
        case .postgresql(let s): return s
        }
    }

    /// The store's webhook wake-up, for the delivery threads.
    var webhookSignal: WebhookSignal {
        switch self {
        case .sqlite(let s): return s.webhookSignal
        case .postgresql(let s): return s.webhookSignal
        }
    }

    var name: String {
        switch self {
        case .sqlite: return "sqlite"
        case .postgresql: return "postgresql"
        }
    }

    /// Whether the database can be reached now (always, for the file).
    var isReachable: Bool {
        switch self {
        case .sqlite: return true
        case .postgresql(let s): return s.isReachable
        }
    }

    func close() { store.close() }

    /// Where the resolver shares its rate limits: the other nodes on the same PostgreSQL
    /// database (decision 0016; the node's mark goes in its `nodes` row, named `node`), or
    /// nobody (the SQLite file has one edge).
    func fleetCounters(node: String) throws(EdgeStartError) -> any FleetCounters {
        switch self {
        case .sqlite: return SoloCounters()
        case .postgresql(let s):
            do {
                return try s.fleetCounters(node: node)
            } catch {
                throw .store("cannot share the rate limits: \(error.safeMessage)")
            }
        }
    }

    /// How long start-up keeps trying a PostgreSQL server that refuses or is not there
    /// yet (it may be starting beside the edge), before giving up with exit 1 so that a
    /// supervisor restarts the edge later.
    static let connectAttempts = 5

    /// Opens the configured store. `readers`: one per event loop. A refused connection
    /// is tried again (`connectAttempts`, with growing waits); the message of a failure
    /// names the setting and never holds the password.
    static func open(
        _ configuration: EdgeConfiguration, readers: Int, log: Log?, checking: Bool = false
    ) throws(EdgeStartError) -> StoreBackend {
        guard let database = configuration.database else {
            do {
                var options = SQLiteStore.Options()
                options.busyTimeoutMilliseconds = Int32(configuration.storeLockWaitMilliseconds)
                options.makeFilesPrivate = !checking
                return .sqlite(
                    try SQLiteStore.open(path: configuration.databasePath, readers: readers, options: options))
            } catch {
                throw .store("cannot open the store at \(configuration.databasePath): \(error)")
            }
        }
        var options = PGStore.Options()
        options.testMigration = configuration.testMigration
        var wait: UInt32 = 500_000
        var attempt = 1
        while true {
            do throws(StoreError) {
                return .postgresql(try PGStore.open(settings: database, readers: readers, options: options))
            } catch {
                if case .schemaTooNew(let found, let supported) = error {
                    throw .store(
                        "BIQLI_EDGE_DATABASE_URL: the database's schema is version \(found), made by a newer "
                            + "biqli-edge that this one (\(EdgeCommand.version), schema \(supported)) cannot run "
                            + "beside; upgrade this binary")
                }
                let transient: Bool
                if case .unavailable = error { transient = true } else { transient = false }
                if !transient || attempt >= connectAttempts {
                    throw .store("BIQLI_EDGE_DATABASE_URL: \(error.safeMessage)")
                }
                log?.warn(
                    "PostgreSQL not reachable yet; trying again",
                    [("attempt", .int(Int64(attempt))), ("detail", .string(error.safeMessage))])
                usleep(wait)
                wait = min(wait * 2, 4_000_000)
                attempt += 1
            }
        }
    }
}
