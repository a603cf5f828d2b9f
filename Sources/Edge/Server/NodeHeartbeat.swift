import HTTP
import Store

/// The node's heartbeat on PostgreSQL (`PGNodeHeartbeat`): claimed at start-up, before
/// the edge serves, so that a second process with the same `BIQLI_EDGE_NODE` on the
/// same database stops at once (exit 1, one line). On SQLite there is one node, the
/// data directory's (`ServeLock`), and nothing to record.
enum NodeHeartbeat {
    static func start(backend: StoreBackend, configuration: EdgeConfiguration, log: Log) throws(EdgeStartError)
        -> PGNodeHeartbeat?
    {
        guard case .postgresql(let store) = backend else { return nil }
        let identity = PGNodeHeartbeat.Identity(
            name: configuration.node, version: EdgeCommand.version, schemaVersion: store.knownSchemaVersion)
        do throws(PGNodeHeartbeat.ClaimError) {
            return try PGNodeHeartbeat.start(settings: store.settings, identity: identity) { event in
                switch event {
                case .failing(let detail):
                    log.error(
                        "node heartbeat failed; trying again every 5 s",
                        [("detail", .string(detail))])
                case .resumed:
                    log.info("node heartbeat resumed")
                case .nameHeldElsewhere:
                    log.error(
                        "another process took this node's name while its heartbeat was cut off; "
                            + "give each edge its own BIQLI_EDGE_NODE")
                }
            }
        } catch {
            backend.close()
            switch error {
            case .nameTaken: throw .store("\(error)")
            case .store: throw .store("BIQLI_EDGE_DATABASE_URL: \(error)")
            }
        }
    }

    /// What the row's `listening` says once the listeners are up: `http=127.0.0.1:8080 https=...`.
    static func listening(_ server: HTTPServer) -> String {
        server.boundAddresses.map { kind, address in "\(kind)=\(address.description)" }.joined(separator: " ")
    }
}
