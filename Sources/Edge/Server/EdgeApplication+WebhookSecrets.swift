import Core
import Model
import Store

extension EdgeApplication {
    /// The keyring of the webhooks' signing secrets from the data directory, made when the
    /// store registered none (decision 0031), and what seals the secrets stored as such.
    static func webhookSecrets(configuration: EdgeConfiguration, backend: StoreBackend, log: Log)
        throws(EdgeStartError) -> (keeper: WebhookSecretKeeper, sealing: WebhookSecretSealing)
    {
        let store = backend.store
        let path = WebhookKeyFile.path(dataDirectory: configuration.dataDirectory)
        let loaded: (WebhookKeyring?, made: Bool, registered: [String])
        do {
            loaded = try WebhookKeyFile.load(
                dataDirectory: configuration.dataDirectory, registered: try store.reader(loop: 0).webhookSecretKeyIds(),
                register: { id in
                    try store.writeAndWait { tx in
                        try tx.registerFirstWebhookSecretKey(id: id, now: Int64(Clock.nowMilliseconds()))
                    }
                })
        } catch let failure as WebhookKeyFile.Failure {
            throw .io(failure.description)
        } catch {
            throw .store("cannot read or register the webhook secret keys: \(error)")
        }
        let registered = loaded.registered
        if loaded.made, let key = loaded.0?.current {
            log.info("webhook secret key made", [("path", .string(path)), ("key", .string(key.id))])
        }
        let keeper = WebhookSecretKeeper(
            keyring: loaded.0, sealing: false, path: path, reload: { (try? WebhookKeyFile.read(path)) ?? nil })
        let endpoints = (try? store.reader(loop: 0).webhookEndpoints()) ?? []
        if loaded.0 == nil {
            // An error once there are secrets to open; a fleet without endpoints is only told.
            (endpoints.isEmpty ? log.warn : log.error)(
                "webhook secrets cannot be opened on this node",
                [
                    ("path", .string(path)), ("keys", .array(registered.map { .string($0) })),
                    ("fix", .string("copy the file from a node of the fleet, or restore it from the backup")),
                ])
        }
        var gate: (@Sendable () throws -> PGWebhookSealingGate.Verdict)?
        var afterSealing: (@Sendable () throws -> Void)?
        switch backend {
        case .postgresql(let pg):
            let settings = pg.settings
            gate = { try PGWebhookSealingGate.check(settings: settings) }
        case .sqlite(let file):
            afterSealing = { _ = try file.truncateWAL() }
        }
        // A secret sealed already: the fleet sealed before, and raised `compatible_from` then.
        let sealedBefore = endpoints.contains { WebhookSecretSeal.isSealed($0.secret) }
        let sealing = WebhookSecretSealing(
            store: backend.store, keeper: keeper, gate: gate, sealedBefore: sealedBefore, afterSealing: afterSealing,
            log: log)
        return (keeper, sealing)
    }
}
