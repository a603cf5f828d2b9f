import Core
import Model
import Store

/// `biqli-edge webhook-key status|rotate|reseal`: the keys that seal the webhooks' signing
/// secrets at rest (decision 0031).
enum WebhookKeyCommand {
    static let help = """
        Usage: biqli-edge webhook-key <status|rotate|reseal> [options]

        The webhooks' signing secrets are sealed in the store with a key kept outside it, in
        <data>/secrets/webhook-keys (BIQLI_EDGE_DATA_DIR or --config; 0600; in every backup):
        the first key of the file seals, every key opens. A fleet on PostgreSQL shares one
        file: give it to every node as its other secrets. Works while `serve` runs: the edge
        reads the file again when it meets a key it lacks.

          webhook-key status [--json]   this node's keys (the first seals), the keys the store
                                        registered, and how many secrets each seals
          webhook-key rotate [--lost]   a new key, first in the file (the others stay: they
                                        open older backups), and every sealed secret sealed
                                        again with it, in one transaction. --lost: the file is
                                        gone and its keys with it: a new file with the new key
                                        alone (the secrets sealed with the lost keys stay
                                        unreadable: rotate those endpoints' secrets)
          webhook-key reseal            every sealed secret sealed again with the file's first
                                        key (a fleet: after copying the rotated file to every
                                        node, for the secrets sealed meanwhile)

        A key no longer needed (status shows it seals nothing, and no backup you may restore
        needs it) may be deleted from the file by hand.

        Every subcommand takes --config FILE and --help.

        Examples:
          biqli-edge webhook-key status
          biqli-edge webhook-key rotate
        """

    static func run(_ args: [String]) -> Int32 {
        CommandSetup.dispatch(
            args, command: "webhook-key", names: ["status", "rotate", "reseal"], help: help, sharedHelp: true,
            run: run(_:_:))
    }

    private static func run(_ sub: String, _ rest: [String]) -> Int32 {
        let command = "webhook-key " + sub
        let flags: Set<String> = sub == "status" ? ["json"] : sub == "rotate" ? ["lost"] : []
        guard let options = ParsedOptions.parse(rest, flags: flags, values: ["config"], command: command),
            options.positional.isEmpty
        else {
            printError("biqli-edge \(command): takes no arguments (see --help)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: command)
        else { return 2 }
        let path = WebhookKeyFile.path(dataDirectory: configuration.dataDirectory)
        let file: WebhookKeyring?
        do throws(WebhookKeyFile.Failure) {
            file = try WebhookKeyFile.read(path)
        } catch {
            printError("biqli-edge \(command): \(error)")
            return 1
        }
        guard let store = CommandSetup.openStore(configuration, command: command) else { return 1 }
        defer { store.close() }
        do {
            switch sub {
            case "status": return try status(file, path: path, store: store, json: options.flags.contains("json"))
            case "rotate": return try rotate(file, path: path, store: store, lost: options.flags.contains("lost"))
            default: return try reseal(file, path: path, store: store)
            }
        } catch {
            printError("biqli-edge \(command): \(error)")
            return 1
        }
    }

    static func status(_ ring: WebhookKeyring?, path: String, store: any Store, json: Bool) throws -> Int32 {
        let reader = store.reader(loop: 0)
        let registered = try reader.webhookSecretKeyIds()
        var count: [String: Int] = [:]
        var plain = 0
        for e in try reader.webhookEndpoints() {
            for stored in [e.secret, e.previousSecret].compactMap({ $0 }) {
                if let id = WebhookSecretSeal.keyId(stored) { count[id, default: 0] += 1 } else { plain += 1 }
            }
        }
        let ids = (ring?.ids ?? []) + Set(registered).union(count.keys).subtracting(ring?.ids ?? []).sorted()
        if json {
            let keys: [JSONValue] = ids.map { id in
                .object([
                    ("id", .string(id)), ("inFile", .bool(ring?.key(id: id) != nil)),
                    ("seals", .bool(ring?.current?.id == id)), ("registered", .bool(registered.contains(id))),
                    ("secrets", .int(Int64(count[id] ?? 0))),
                ])
            }
            printOut(
                JSONWriter(pretty: true).string(
                    .object([
                        ("file", .string(path)), ("fileFound", .bool(ring != nil)), ("keys", .array(keys)),
                        ("unsealedSecrets", .int(Int64(plain))),
                    ])))
            return 0
        }
        printOut(ring == nil ? "\(path): missing" : "\(path):")
        for id in ids {
            var notes: [String] = []
            if ring?.current?.id == id { notes.append("seals") }
            if ring?.key(id: id) == nil { notes.append("NOT IN THE FILE") }
            if registered.contains(id) { notes.append("registered") }
            printOut(
                "  \(id)  \(count[id] ?? 0) secret(s)"
                    + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")"))
        }
        if plain > 0 { printOut("  \(plain) secret(s) not sealed yet") }
        return 0
    }

    static func rotate(_ ring: WebhookKeyring?, path: String, store: any Store, lost: Bool) throws -> Int32 {
        guard ring != nil || lost else {
            printError(
                "biqli-edge webhook-key rotate: \(path) is missing. Copy it from another node, or restore it from the backup; "
                    + "if its keys are lost, `biqli-edge webhook-key rotate --lost` makes a new file.")
            return 1
        }
        if ring != nil, lost {
            printError("biqli-edge webhook-key rotate: --lost, but \(path) is there: rotate without --lost")
            return 2
        }
        let key = WebhookKeyring.Key.generate()
        let rotated = WebhookKeyring(keys: [key] + (ring?.keys ?? []))
        // The file first: a secret sealed with a key no file holds would be lost.
        try WebhookKeyFile.write(rotated, to: path)
        do {
            let (changed, unreadable) = try resealAll(store, keyring: rotated, with: key, register: true)
            printOut(
                "\(key.id): now first in \(path); \(changed) secret(s) sealed with it"
                    + (unreadable > 0 ? "; \(unreadable) sealed with lost keys left as they are" : ""))
            printOut("A fleet: copy \(path) to every node now, then run `biqli-edge webhook-key reseal` once.")
            return 0
        } catch {
            if let ring { try? WebhookKeyFile.write(ring, to: path) }
            throw error
        }
    }

    static func reseal(_ ring: WebhookKeyring?, path: String, store: any Store) throws -> Int32 {
        guard let ring, let key = ring.current else {
            printError("biqli-edge webhook-key reseal: \(path) is missing")
            return 1
        }
        guard try store.reader(loop: 0).webhookSecretKeyIds().contains(key.id) else {
            printError(
                "biqli-edge webhook-key reseal: \(path)'s first key (\(key.id)) is not one the store registered: "
                    + "this is not the fleet's file")
            return 1
        }
        let (changed, unreadable) = try resealAll(store, keyring: ring, with: key, register: false)
        printOut("\(changed) secret(s) sealed again with \(key.id)")
        if unreadable > 0 {
            printError("biqli-edge webhook-key reseal: \(unreadable) secret(s) are sealed with keys \(path) lacks")
            return 1
        }
        return 0
    }

    /// Every sealed secret sealed with `key`, in one transaction (plaintext ones are left to
    /// the edge's sealing, which waits for a fleet's older nodes). Returns how many changed
    /// and how many could not be opened (left as they are).
    static func resealAll(_ store: any Store, keyring: WebhookKeyring, with key: WebhookKeyring.Key, register: Bool)
        throws -> (changed: Int, unreadable: Int)
    {
        try store.writeAndWait { tx in
            let now = Int64(Clock.nowMilliseconds())
            if register { try tx.registerWebhookSecretKey(id: key.id, now: now) }
            var changed = 0
            var unreadable = 0
            func again(_ stored: String?, _ id: String) -> String? {
                guard let stored, WebhookSecretSeal.isSealed(stored) else { return stored }
                do {
                    let out = try WebhookSecretSeal.reseal(stored, endpointId: id, keyring: keyring, with: key)
                    if out != stored { changed += 1 }
                    return out
                } catch {
                    unreadable += 1
                    return stored
                }
            }
            for e in try tx.webhookEndpoints() {
                var next = e
                next.secret = again(e.secret, e.id) ?? e.secret
                next.previousSecret = again(e.previousSecret, e.id)
                if next != e { try tx.putWebhookEndpoint(next) }
            }
            return (changed, unreadable)
        }
    }
}
