import Core

/// `biqli-edge check`: says what is wrong with a deployment, and how to fix it.
enum CheckCommand {
    static let help = """
        Usage: biqli-edge check [--config FILE] [--json]

        Checks, without changing anything:
          - the configuration (--config FILE and BIQLI_EDGE_* variables, as `serve` reads them);
          - that the data directory is writable (or can be created);
          - the certificates: every file loads, and every domain has a valid certificate
            (from the directory, or ordered through ACME) that does not expire within 14
            days, and whose last ACME order did not fail;
          - the workspace keys: at least one is usable;
          - the association documents of every domain (team and bundle IDs, packages,
            fingerprints, duplicates, sizes, verified domains, apps attached).
          - webhooks: disabled endpoints, and the keys that seal their signing secrets
            (<data>/secrets/webhook-keys present, readable, holding every key the store's
            secrets are sealed with).
        Each problem is printed with how to fix it.

          --json   print the findings as a JSON array

        Exit status: 0 nothing wrong (warnings allowed), 1 something wrong, 2 usage.

        Examples:
          biqli-edge check
          biqli-edge check --config /etc/biqli/edge.json
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli biqli-edge check --json | jq '.[] | select(.severity == "error")'
        """

    static func run(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(help)
            return 0
        }
        guard let options = ParsedOptions.parse(args, flags: ["json"], values: ["config"], command: "check") else {
            return 2
        }
        guard options.positional.isEmpty else {
            printError("biqli-edge check: takes no arguments (see --help)")
            return 2
        }
        let findings = EdgeChecker.run(
            configFile: options.values["config"], environment: EdgeCommand.environment(),
            now: Int64(Clock.nowMilliseconds()))
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        if options.flags.contains("json") {
            printOut(JSONWriter(pretty: true).string(.array(findings.map(\.json))))
        } else {
            for f in findings { printOut(f.text) }
            printOut("check: \(errors) error(s), \(warnings) warning(s)")
        }
        return errors > 0 ? 1 : 0
    }
}
