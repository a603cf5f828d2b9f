import Store

/// `biqli-edge restore --from FILE`: a backup (`BackupCommand`) into an empty data
/// directory, checked first (`DataDirectoryRestore`).
enum RestoreCommand {
    static let help = """
        Usage: biqli-edge restore --from FILE [--config FILE]

        Puts the backup FILE (made by `biqli-edge backup`) into the data directory
        (BIQLI_EDGE_DATA_DIR or --config), which must be empty or not exist yet, and in
        which no edge may serve (the command holds its serve.lock). Before anything takes
        its place it checks each file's size and SHA-256 against the backup's manifest, the
        store with PRAGMA integrity_check, and its schema version (a backup of a newer
        biqli-edge is refused; an older one is migrated when the edge starts). On any
        failure nothing is left in the directory. Run as root, the restored files get the
        data directory's owner (the service's user).

        Then start the edge on the directory. The certificate directory, when it is not
        inside the data directory, is not in the backup.

          --from FILE     the backup file
          --config FILE   JSON settings, as `serve --config`

        Exit status: 0 restored, 1 not restored (the directory left empty), 2 usage.

        Examples:
          systemctl stop biqli-edge && mv /var/lib/biqli-edge /var/lib/biqli-edge.old
          install -d -o biqli-edge -g biqli-edge -m 0700 /var/lib/biqli-edge
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli-edge biqli-edge restore --from edge-2026-12-04.tar
        """

    static func run(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(help)
            return 0
        }
        let command = "restore"
        guard let options = ParsedOptions.parse(args, flags: [], values: ["from", "config"], command: command) else {
            return 2
        }
        guard options.positional.isEmpty else {
            printError("biqli-edge restore: takes no arguments, only --from FILE (see --help)")
            return 2
        }
        guard let source = options.values["from"], !source.isEmpty else {
            printError("biqli-edge restore: --from FILE is required: the backup to restore (see --help)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: command) else {
            return 2
        }
        if configuration.database != nil {
            printError(
                "biqli-edge restore: the store is on PostgreSQL (BIQLI_EDGE_DATABASE_URL): restore the database with "
                    + "pg_restore or from a base backup (README, \"Backups\")")
            return 1
        }
        let manifest: BackupManifest
        do {
            manifest = try DataDirectoryRestore.run(from: source, into: configuration.dataDirectory)
        } catch {
            printError("biqli-edge restore: \(source): \(error)")
            return 1
        }
        printOut(
            "Restored \(source) into \(configuration.dataDirectory): \(manifest.files.count) files checked, "
                + "schema \(manifest.schemaVersion) (made by biqli-edge \(manifest.edgeVersion) on "
                + "\(manifest.node.isEmpty ? "an unnamed node" : manifest.node)). Start the edge on it.")
        return 0
    }
}
