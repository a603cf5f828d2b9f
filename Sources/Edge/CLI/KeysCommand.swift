import Core
import Management
import Model
import Store

/// `biqli-edge keys create|list|revoke`: workspace secret keys, which authenticate the
/// workspace API, and browser keys (`--browser`), which a page sends to `track/click`
/// (decision 0027). A key is printed once, at creation, and stored only as its SHA-256.
enum KeysCommand {
    static let help = """
        Usage: biqli-edge keys <create|list|revoke> [options]

        Workspace secret keys (biqli_sk_...) authenticate the workspace API under /api/v1/.
        Browser keys (biqli_pk_..., --browser) go into customers' pages and grant only
        POST /api/v1/track/click (client-side click tracking). They work on the data
        directory of BIQLI_EDGE_DATA_DIR (or --config), also while `serve` runs there.

          keys create --name NAME [--scope SCOPE]...
                                    create a key and print it, alone on one line (shown once)
          keys create --browser --name NAME
                                    create a browser key (biqli_pk_...) and print it
          keys list [--json]        list keys: id, type, name, last four characters, scopes, created, revoked
          keys revoke ID            revoke a key, secret (sk_...) or browser (bk_...): it stops working at once

        Every subcommand takes --config FILE and --help.

        Examples:
          biqli-edge keys create --name ci
          biqli-edge keys create --name shop-backend --scope conversions.create
          biqli-edge keys create --browser --name shop-site
          export BIQLI_SK=$(biqli-edge keys create --name deploy)
          biqli-edge keys list
          biqli-edge keys revoke sk_01JDEM0KEY0000000000000000
        """

    static let createHelp = """
        Usage: biqli-edge keys create --name NAME [--scope SCOPE]... [--config FILE]
               biqli-edge keys create --browser --name NAME [--config FILE]

        Creates a workspace secret key and prints it alone on one line of standard output.
        It is shown only this once (only its SHA-256 is stored): keep it in a secret store.
        NAME (1 to 64 characters) tells keys apart in `keys list`.

        Without --scope the key holds every power (as every key made before scopes does).
        With --scope (repeated, or names separated by commas) it holds only those; a
        request that needs another is refused with 403 insufficient_scope. Scopes:
        \(KeyScope.allCases.map(\.rawValue).joined(separator: ", ")).
        A server that only sends leads and sales (the PHP SDK) needs conversions.create.

        With --browser it makes a workspace browser key (biqli_pk_...) instead: the key a
        customer's page gives analytics-v3.js (data-publishable-key) for POST
        /api/v1/track/click, from the hostnames the workspace allows. It grants nothing
        else (every other route refuses it) and takes no --scope.

        Examples:
          biqli-edge keys create --name ci
          biqli-edge keys create --name shop --scope conversions.create
          biqli-edge keys create --name reports --scope links.read,analytics.read
          biqli-edge keys create --browser --name shop-site
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli biqli-edge keys create --name "ops laptop"
          curl -H "Authorization: Bearer $(biqli-edge keys create --name tmp)" http://localhost:8080/api/v1/links
        """

    static let listHelp = """
        Usage: biqli-edge keys list [--json] [--config FILE]

        Lists workspace keys, secret and browser: ID, type, name, the last four characters,
        scopes, creation and revocation times. Never the keys themselves. --json prints a
        JSON array instead of a table.

        Examples:
          biqli-edge keys list
          biqli-edge keys list --json | jq -r '.[] | select(.revokedAt == null) | .id'
        """

    static let revokeHelp = """
        Usage: biqli-edge keys revoke ID [--config FILE]

        Revokes the key with this ID (from `keys list`): a secret key (sk_...) or a browser
        key (bk_...); requests with it get 401 at once. Revoking a revoked key changes
        nothing and succeeds.

        Examples:
          biqli-edge keys revoke sk_01JDEM0KEY0000000000000000
          biqli-edge keys revoke bk_01JDEM0KEY0000000000000000
        """

    static func run(_ args: [String]) -> Int32 {
        CommandSetup.dispatch(
            args, command: "keys", names: ["create", "list", "revoke"], help: help, sharedHelp: false
        ) { sub, rest in
            switch sub {
            case "create": return create(rest)
            case "list": return list(rest)
            default: return revoke(rest)
            }
        }
    }

    static func create(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(createHelp)
            return 0
        }
        guard
            let options = ParsedOptions.parse(
                args, flags: ["browser"], values: ["name", "scope", "config"], command: "keys create")
        else { return 2 }
        guard options.positional.isEmpty, let name = options.values["name"] else {
            printError("biqli-edge keys create: --name NAME is required (see --help)")
            return 2
        }
        if let rule = WorkspaceKeys.nameProblem(name) {
            printError("biqli-edge keys create: --name \(rule)")
            return 2
        }
        let browser = options.flags.contains("browser")
        if browser, options.allValues["scope"] != nil {
            printError("biqli-edge keys create: a browser key takes no --scope (it can only track clicks)")
            return 2
        }
        var scopes: [KeyScope]?
        if let given = options.allValues["scope"] {
            var unknown: String?
            guard let parsed = KeyScope.parse(given.joined(separator: ","), unknown: &unknown), !parsed.isEmpty else {
                let known = KeyScope.allCases.map(\.rawValue).joined(separator: ", ")
                printError(
                    "biqli-edge keys create: --scope \(unknown.map { "\"\($0)\" is not a scope" } ?? "is empty"); "
                        + "the scopes are: \(known)")
                return 2
            }
            scopes = parsed
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: "keys create")
        else { return 2 }
        if scopes != nil, let refusal = olderNodesProblem(configuration) {
            printError("biqli-edge keys create: \(refusal)")
            return 1
        }
        guard let store = CommandSetup.openStore(configuration, command: "keys create") else { return 1 }
        defer { store.close() }
        let key: String
        do {
            let now = Int64(Clock.nowMilliseconds())
            key =
                browser
                ? try BrowserKeys.create(name: name, store: store, now: now)
                : try WorkspaceKeys.create(name: name, scopes: scopes, store: store, now: now)
        } catch {
            printError("biqli-edge keys create: cannot store the key: \(error)")
            return 1
        }
        printOut(key)
        return 0
    }

    /// Why a scoped key must not be made now, or nil: on PostgreSQL, a live node whose
    /// binary predates key scopes would let the key do everything (a rolling upgrade not
    /// finished). Nodes that stopped or went silent do not count; a database that cannot
    /// be read is refused too (the store could not be opened anyway).
    static func olderNodesProblem(_ configuration: EdgeConfiguration) -> String? {
        guard let database = configuration.database else { return nil }
        let listing: PGNodeListing
        do throws(StoreError) {
            listing = try PGNodeListing.read(
                settings: database, seenWithinMilliseconds: PGNodeHeartbeat.liveWithinMilliseconds)
        } catch {
            return "BIQLI_EDGE_DATABASE_URL: \(error.safeMessage)"
        }
        let old = listing.liveNodes(olderThan: PGNodeListing.keyScopesSchemaVersion)
        guard !old.isEmpty else { return nil }
        let names = old.map { "\($0.name) (\($0.version), schema \($0.schemaVersion))" }.joined(separator: ", ")
        return "live nodes run a binary older than key scopes, which would let a scoped key do everything: "
            + "\(names). Replace them first (biqli-edge nodes), or make a key without --scope."
    }

    static func list(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(listHelp)
            return 0
        }
        guard let options = ParsedOptions.parse(args, flags: ["json"], values: ["config"], command: "keys list"),
            options.positional.isEmpty
        else {
            printError("biqli-edge keys list: takes no arguments (see --help)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: "keys list")
        else { return 2 }
        guard let store = CommandSetup.openStore(configuration, command: "keys list") else { return 1 }
        defer { store.close() }
        let keys: [SecretKeyRecord]
        let browserKeys: [BrowserKeyRecord]
        do {
            keys = try store.reader(loop: 0).secretKeys()
            browserKeys = try store.reader(loop: 0).browserKeys()
        } catch {
            printError("biqli-edge keys list: \(error)")
            return 1
        }
        if options.flags.contains("json") {
            printOut(JSONWriter(pretty: true).string(.array(keys.map(json) + browserKeys.map(json))))
            return 0
        }
        if keys.isEmpty && browserKeys.isEmpty {
            printOut("No workspace keys. Create one with: biqli-edge keys create --name NAME")
            return 0
        }
        func time(_ t: Int64?) -> String { t.map { Timestamp.format(milliseconds: $0) } ?? "-" }
        let rows =
            keys.map { k in
                [
                    k.id, "secret", k.name, "..." + k.hint,
                    k.scopes.map { KeyScope.encode($0).replacingOccurrences(of: " ", with: ",") } ?? "all",
                    time(k.createdAt), time(k.revokedAt),
                ]
            }
            + browserKeys.map { k in
                [k.id, "browser", k.name, "..." + k.hint, "track/click", time(k.createdAt), time(k.revokedAt)]
            }
        printOut(table(header: ["ID", "TYPE", "NAME", "HINT", "SCOPES", "CREATED", "REVOKED"], rows: rows))
        return 0
    }

    static func revoke(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(revokeHelp)
            return 0
        }
        guard let options = ParsedOptions.parse(args, flags: [], values: ["config"], command: "keys revoke") else {
            return 2
        }
        guard options.positional.count == 1, let id = options.positional.first else {
            printError("biqli-edge keys revoke: give exactly one key ID (see `biqli-edge keys list`)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: "keys revoke")
        else { return 2 }
        guard let store = CommandSetup.openStore(configuration, command: "keys revoke") else { return 1 }
        defer { store.close() }
        let now = Int64(Clock.nowMilliseconds())
        let outcome: WorkspaceKeys.Revocation
        do {
            outcome =
                id.hasPrefix(BrowserKeyRecord.idPrefix)
                ? try BrowserKeys.revoke(id: id, store: store, now: now)
                : try WorkspaceKeys.revoke(id: id, store: store, now: now)
        } catch {
            printError("biqli-edge keys revoke: \(error)")
            return 1
        }
        switch outcome {
        case .notFound:
            printError("biqli-edge keys revoke: no key \(id) (see `biqli-edge keys list`)")
            return 1
        case .alreadyRevoked:
            printOut("\(id) already revoked")
        case .revoked:
            printOut("\(id) revoked")
        }
        return 0
    }

    static func json(_ k: BrowserKeyRecord) -> JSONValue {
        .object([
            ("id", .string(k.id)), ("type", "browser"), ("name", .string(k.name)), ("hint", .string(k.hint)),
            ("scopes", .null),
            ("createdAt", .string(Timestamp.format(milliseconds: k.createdAt))),
            ("revokedAt", k.revokedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
        ])
    }

    static func json(_ k: SecretKeyRecord) -> JSONValue {
        .object([
            ("id", .string(k.id)), ("type", "secret"), ("name", .string(k.name)), ("hint", .string(k.hint)),
            ("scopes", k.scopes.map { .array($0.map { .string($0.rawValue) }) } ?? .null),
            ("createdAt", .string(Timestamp.format(milliseconds: k.createdAt))),
            ("revokedAt", k.revokedAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
        ])
    }

    /// Left-aligned columns separated by two spaces.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(widths[i] + 1) }.joined(
                separator: " ")
        }.joined(separator: "\n")
    }
}
