import Certificates
import Console
import GeoIP
import HTTP
import Resolver
import Store
import Webhooks

/// The edge's services, each with what it needs (`EdgeApplication` lists them; the
/// lifecycle orders them). An optional part absent from the configuration is a service that
/// does nothing, so that the others' needs stay the same.
extension EdgeService {
    /// Every other part writes through the store: it is closed last.
    static func store(_ store: any Store) -> EdgeService {
        EdgeService("store", stop: { store.close() })
    }

    /// On PostgreSQL the node's row (claimed as the edge is assembled, so that a second
    /// process with its name stops at once); a graceful stop marks it stopped.
    static func nodeHeartbeat(_ heartbeat: PGNodeHeartbeat?) -> EdgeService {
        EdgeService("node-heartbeat", needs: ["store"], stop: { heartbeat?.stop() })
    }

    /// The retention pass, which also rotates the receipt signing keys.
    static func retention(_ pruner: RetentionPruner) -> EdgeService {
        EdgeService("retention", needs: ["store"], start: { pruner.start() }, stop: { pruner.stop() })
    }

    /// On PostgreSQL the resolver's share of the fleet's rate-limit counts (started with it).
    static func fleetSync(_ resolver: Resolver) -> EdgeService {
        EdgeService("fleet-sync", needs: ["store"], stop: { resolver.stopFleetSync() })
    }

    /// The watch for a new GeoIP database file.
    static func geoIP(_ geoIP: GeoIPLookup?) -> EdgeService {
        EdgeService("geoip", start: { geoIP?.start() }, stop: { geoIP?.stop() })
    }

    /// The console's background thread (its counts).
    static func console(_ console: Console?) -> EdgeService {
        EdgeService("console", needs: ["store"], start: { console?.start() }, stop: { console?.stop() })
    }

    /// Seals the webhooks' signing secrets stored as such (decision 0031); on SQLite as it
    /// starts, so before the loops serve.
    static func webhookSealing(_ sealing: WebhookSecretSealing) -> EdgeService {
        EdgeService("webhook-sealing", needs: ["store"], start: { sealing.start() }, stop: { sealing.stop() })
    }

    /// The webhooks' delivery threads (decision 0028).
    static func webhooks(_ webhooks: WebhookDispatcher, depthReaderLoop: Int, releaseEveryLease: Bool) -> EdgeService {
        EdgeService(
            "webhooks", needs: ["store"],
            start: { webhooks.start(depthReaderLoop: depthReaderLoop, releaseEveryLease: releaseEveryLease) },
            stop: { webhooks.stop() })
    }

    /// The listeners and loops. It needs every part a request uses: the store (and the
    /// clicks written through it), the node's row that says where it listens, the receipt
    /// keys' rotation, the fleet's counts, the countries, the console; the secrets sealed
    /// before it serves; and the delivery threads, stopped only after the last request's
    /// events are written. Stopping, it stops accepting at once (`beginStopping`), then waits
    /// for the requests in flight (`shutdownGraceMilliseconds` at most).
    static func server(_ server: HTTPServer, handler: ListenerDispatch, heartbeat: PGNodeHeartbeat?)
        -> EdgeService
    {
        EdgeService(
            "server",
            needs: [
                "store", "node-heartbeat", "retention", "fleet-sync", "geoip", "console", "webhook-sealing", "webhooks",
            ],
            start: { () throws(EdgeStartError) in
                do { try server.start(handler: handler) } catch { throw .io("\(error)") }
                heartbeat?.update(listening: NodeHeartbeat.listening(server))
            },
            beginStopping: { server.shutdown() }, stop: { server.wait() })
    }

    /// The certificate manager (`BIQLI_EDGE_ACME=on`): its challenges are answered by the
    /// server, which it hands the certificates; it stops first, while the server drains.
    static func acme(_ acme: CertificateAutomation?, configuration: EdgeConfiguration, log: Log) -> EdgeService {
        EdgeService(
            "acme", needs: ["server", "store"],
            start: {
                guard let acme else { return }
                acme.start()
                log.info(
                    "ACME on: ordering certificates for the configured domains",
                    [
                        ("directory", .string(configuration.acme.directory)),
                        ("challenges", .array(acme.manager.settings.challenges.map { .string($0.rawValue) })),
                    ])
            }, stop: { acme?.stop() })
    }
}
