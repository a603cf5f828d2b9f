import Core
import Store

/// `biqli-edge backup --to FILE`: one file holding a consistent copy of the SQLite store,
/// taken while the edge serves, and the data directory's secrets (`DataDirectoryBackup`).
enum BackupCommand {
    static let help = """
        Usage: biqli-edge backup --to FILE [--config FILE]

        Writes FILE (a tar archive, mode 0600; never over an existing file) with a copy of
        the SQLite store of the data directory (BIQLI_EDGE_DATA_DIR or --config) and every
        other file of that directory (secrets/, and certs/ when the certificate directory
        is inside it), and biqli-edge-backup.json: the store's schema version and each
        file's size and SHA-256. The edge may be serving: the copy is one snapshot, read
        through SQLite's online backup beside the edge's writes, which it never pauses.
        The copy passes PRAGMA integrity_check before FILE is written.

        The backup holds the receipt signing keys, the ACME keys and the source-address
        key: keep it as secret as the data directory. Put it back with `biqli-edge
        restore --from FILE`. On PostgreSQL (BIQLI_EDGE_DATABASE_URL) back the database up
        with pg_dump or a base backup instead (README, "Backups").

          --to FILE       the backup file to write
          --config FILE   JSON settings, as `serve --config`

        Exit status: 0 written, 1 not written, 2 usage.

        Examples:
          biqli-edge backup --to /var/backups/biqli-edge/edge-$(date +%F).tar
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli-edge biqli-edge backup --to edge.tar
        """

    static func run(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(help)
            return 0
        }
        let command = "backup"
        guard let options = ParsedOptions.parse(args, flags: [], values: ["to", "config"], command: command) else {
            return 2
        }
        guard options.positional.isEmpty else {
            printError("biqli-edge backup: takes no arguments, only --to FILE (see --help)")
            return 2
        }
        guard let target = options.values["to"], !target.isEmpty else {
            printError("biqli-edge backup: --to FILE is required: where to write the backup (see --help)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: command) else {
            return 2
        }
        if configuration.database != nil {
            printError(
                "biqli-edge backup: the store is on PostgreSQL (BIQLI_EDGE_DATABASE_URL): back the database up with "
                    + "pg_dump, or a base backup and WAL archiving (README, \"Backups\")")
            return 1
        }
        let start = Clock.monotonicNanoseconds()
        let manifest: BackupManifest
        do {
            manifest = try DataDirectoryBackup.make(
                dataDirectory: configuration.dataDirectory, to: target, node: configuration.node)
        } catch {
            printError("biqli-edge backup: \(error)")
            return 1
        }
        let milliseconds = (Clock.monotonicNanoseconds() - start) / 1_000_000
        var lines = [
            "Backed up \(configuration.dataDirectory) to \(target) in \(milliseconds) ms "
                + "(schema \(manifest.schemaVersion), biqli-edge \(manifest.edgeVersion)):"
        ]
        for file in manifest.files {
            lines.append("  \(file.path.padding(32)) \(String(file.bytes).padding(12)) sha256 \(file.sha256)")
        }
        printOut(lines.joined(separator: "\n"))
        return 0
    }
}
