import Core
import Store

#if canImport(Glibc)
import Glibc
#endif

/// `biqli-edge migrate-store --to URL`: moves an edge from its SQLite file to an empty
/// PostgreSQL database (`StoreCopy`), then says what to set. The edge must be stopped:
/// the command holds `serve.lock` while it copies.
enum MigrateStoreCommand {
    static let help = """
        Usage: biqli-edge migrate-store --to URL [--config FILE]

        Copies the SQLite store of the data directory (BIQLI_EDGE_DATA_DIR or --config, as
        `serve` reads it) into an empty PostgreSQL database: domains, Mobile Apps, keys,
        the console's unexpired sessions, links, signing keys, unexpired handoffs, clicks
        and their hourly counts, open events, app instances and idempotency records. The
        schema, the day partitions and every row go in one transaction, and every table is
        counted on both sides before it commits: on any failure or difference the database
        is left as it was (no table made, no row written). The SQLite file is only read.

        Stop the edge first: the command refuses to run while a `serve` holds the data
        directory, and no `serve` can start there while it copies. The database must be
        empty (new, or used by nothing yet); the schema is made if needed. An SQLite file
        written by an older biqli-edge is refused: start this version's `serve` on it once
        (it upgrades the file), stop it, then copy.

          --to URL        the target: a libpq connection string (host=db dbname=biqli user=edge)
                          or postgresql:// URL, as BIQLI_EDGE_DATABASE_URL takes it. The
                          password is never shown.
          --config FILE   JSON settings, as `serve --config`

        Afterwards, set BIQLI_EDGE_DATABASE_URL and start the edge with the same data
        directory: its secrets (secrets/source-address.key, secrets/webhook-keys) and
        certificates stay needed.

        Exit status: 0 copied and verified, 1 not copied (the database as it was; or, when
        the connection failed during the commit, whole or absent: the message says how to
        tell), 2 usage.

        Examples:
          biqli-edge migrate-store --to postgresql://edge@db.internal/biqli
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli biqli-edge migrate-store --to "host=db.internal dbname=biqli user=edge"
          PGPASSWORD=... biqli-edge migrate-store --config /etc/biqli/edge.json --to postgresql://edge@db/biqli
        """

    static func run(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(help)
            return 0
        }
        let command = "migrate-store"
        guard let options = ParsedOptions.parse(args, flags: [], values: ["to", "config"], command: command) else {
            return 2
        }
        guard options.positional.isEmpty else {
            printError("biqli-edge \(command): takes no arguments, only --to URL (see --help)")
            return 2
        }
        guard let url = options.values["to"], !url.isEmpty else {
            printError("biqli-edge \(command): --to URL is required: the PostgreSQL database to copy into (see --help)")
            return 2
        }
        let target: PGConnectionSettings
        do throws(StoreError) {
            target = try PGConnectionSettings(url)
        } catch {
            // Never the value: it may hold the password.
            printError("biqli-edge \(command): --to: \(error.safeMessage)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: command) else {
            return 2
        }
        let path = configuration.databasePath
        guard access(path, F_OK) == 0 else {
            printError(
                "biqli-edge \(command): no SQLite store at \(path); point BIQLI_EDGE_DATA_DIR (or --config) at "
                    + "the edge's data directory")
            return 1
        }
        let lock: ServeLock
        do {
            lock = try ServeLock(directory: configuration.dataDirectory, for: .command(command))
        } catch {
            printError("biqli-edge \(command): \(error)")
            return 1
        }
        defer { withExtendedLifetime(lock) {} }
        printOut("Copying \(path) into PostgreSQL (\(target.redacted)) ...")
        let report: StoreCopy.Report
        do {
            report = try StoreCopy.run(sqlitePath: path, to: target, now: Int64(Clock.nowMilliseconds()))
        } catch {
            printError("biqli-edge \(command): \(error)")
            return 1
        }
        printOut(summary(report, configuration: configuration, url: url))
        return 0
    }

    static func summary(_ report: StoreCopy.Report, configuration: EdgeConfiguration, url: String) -> String {
        var out = ["Copied and verified (rows per table, the same in SQLite and PostgreSQL):"]
        for t in report.tables {
            var line = "  \(t.table.padding(22))\(t.copied)"
            let expired =
                t.table == "handoffs"
                ? report.expiredHandoffs : t.table == "console_sessions" ? report.expiredConsoleSessions : 0
            if expired > 0 { line += "  (\(expired) expired, left out)" }
            out.append(line)
        }
        out += [
            "",
            "Next, on this node:",
            "  1. Set BIQLI_EDGE_DATABASE_URL (--config: \"databaseUrl\"); *** stands for the password:",
            "       BIQLI_EDGE_DATABASE_URL=\(PGConnectionSettings.masked(url))",
            "  2. Start the edge as before, on the same data directory (\(configuration.dataDirectory)):",
            "     its secrets (secrets/source-address.key, which the stored clicks' address hashes were made with;",
            "     secrets/webhook-keys, which seals the webhooks' signing secrets: give it to every node of a fleet)",
            "     and certificates (\(configuration.certificateDirectory)) stay needed on this node.",
            "     Operators signed in to the console stay signed in (their sessions were copied).",
            "  The SQLite file was only read; keep it until the edge serves from PostgreSQL.",
        ]
        return out.joined(separator: "\n")
    }
}
