import Core
import Store

/// `biqli-edge nodes`: the edges that share this PostgreSQL database, from their
/// heartbeats (`PGNodeHeartbeat`). Reads only: it neither migrates nor writes.
enum NodesCommand {
    static let help = """
        Usage: biqli-edge nodes [--all] [--json] [--config FILE]

        Lists the edges on the PostgreSQL database of BIQLI_EDGE_DATABASE_URL (or --config)
        that sent a heartbeat in the last minute: their name (BIQLI_EDGE_NODE), version,
        the newest schema their binary knows, state, start, last heartbeat and listeners.
        Each edge writes its heartbeat every 5 s.

          --all           every node ever recorded, however long ago it was heard from
          --json          a JSON array instead of a table
          --config FILE   JSON settings, as `serve --config`

        States: live (a heartbeat within 15 s), stopped (it stopped gracefully), silent
        (no heartbeat for longer: killed, crashed or cut off from the database).
        On SQLite there is one node, the data directory's edge, and no heartbeat.

        Exit status: 0 listed, 1 the database could not be read, 2 usage.

        Examples:
          biqli-edge nodes
          BIQLI_EDGE_DATABASE_URL=postgresql://edge@db.internal/biqli biqli-edge nodes --all
          biqli-edge nodes --json | jq -r '.[] | select(.state == "live") | .name'
        """

    static let window: Int64 = 60_000

    static func run(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(help)
            return 0
        }
        let command = "nodes"
        guard let options = ParsedOptions.parse(args, flags: ["all", "json"], values: ["config"], command: command)
        else { return 2 }
        guard options.positional.isEmpty else {
            printError("biqli-edge nodes: takes no arguments, only --all, --json and --config (see --help)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: command) else {
            return 2
        }
        let json = options.flags.contains("json")
        guard let database = configuration.database else {
            let message =
                "This edge runs on SQLite: one node, the edge serving the data directory "
                + "\(configuration.dataDirectory) (node name \(configuration.node)). Heartbeats and the list "
                + "of nodes need PostgreSQL (BIQLI_EDGE_DATABASE_URL)."
            if json {
                printError(message)
                printOut("[]")
            } else {
                printOut(message)
            }
            return 0
        }
        let all = options.flags.contains("all")
        let listing: PGNodeListing
        do throws(StoreError) {
            listing = try PGNodeListing.read(settings: database, seenWithinMilliseconds: all ? nil : window)
        } catch {
            printError("biqli-edge nodes: BIQLI_EDGE_DATABASE_URL: \(error.safeMessage)")
            return 1
        }
        printOut(
            json
                ? JSONWriter(pretty: true).string(.array(listing.nodes.map { self.json($0, now: listing.now) }))
                : text(listing, all: all))
        return 0
    }

    static func json(_ node: PGNode, now: Int64) -> JSONValue {
        .object([
            ("name", .string(node.name)), ("version", .string(node.version)),
            ("schemaVersion", .int(Int64(node.schemaVersion))), ("state", .string(node.state(now: now).rawValue)),
            ("startedAt", .string(Timestamp.format(milliseconds: node.startedAt))),
            ("heartbeatAt", .string(Timestamp.format(milliseconds: node.heartbeatAt))),
            ("heartbeatSecondsAgo", .int(secondsAgo(node.heartbeatAt, now: now))),
            ("listening", .string(node.listening)),
        ])
    }

    static func text(_ listing: PGNodeListing, all: Bool) -> String {
        var lines: [String] = []
        if let schema = listing.schema {
            lines.append(
                "Schema \(schema.version); binaries that know schema \(schema.compatibleFrom) or later run on it.")
        }
        guard !listing.nodes.isEmpty else {
            lines.append(
                all
                    ? "No node has recorded a heartbeat on this database."
                    : "No node sent a heartbeat in the last minute (--all lists every node recorded).")
            return lines.joined(separator: "\n")
        }
        let rows = listing.nodes.map { node in
            [
                node.name, node.version, "\(node.schemaVersion)", node.state(now: listing.now).rawValue,
                Timestamp.format(milliseconds: node.startedAt),
                "\(secondsAgo(node.heartbeatAt, now: listing.now)) s ago",
                node.listening.isEmpty ? "-" : node.listening,
            ]
        }
        lines.append(
            KeysCommand.table(
                header: ["NAME", "VERSION", "SCHEMA", "STATE", "STARTED", "LAST HEARTBEAT", "LISTENING"], rows: rows))
        return lines.joined(separator: "\n")
    }

    static func secondsAgo(_ at: Int64, now: Int64) -> Int64 { max(now - at, 0) / 1_000 }
}
