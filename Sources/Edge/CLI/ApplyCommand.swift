import Core
import Management

/// `biqli-edge apply FILE.json`: declarative, idempotent import (see `CatalogImport`).
enum ApplyCommand {
    static let help = """
        Usage: biqli-edge apply FILE.json [--dry-run] [--config FILE]

        Creates or updates the domains, Mobile Apps and links a JSON file describes, with
        the workspace API's rules. Running it again changes nothing and says so. Objects
        not in the file are left alone (apply never deletes). One broken entry and nothing
        is written: every problem is printed with its place in the file.

        The file:
          {
            "domains":    [{"hostname": "go.example.com", "verified": true}],
            "mobileApps": [{"name": "Example", "domains": ["go.example.com"],
                            "ios": {"teamId": "ABCDE12345", "bundleId": "com.example.app",
                                    "appStoreId": "1234567890"},
                            "android": {"packageName": "com.example.app",
                                        "sha256CertFingerprints": ["14:6D:E9:...:44:E5"]}}],
            "links":      [{"domain": "go.example.com", "key": "invite",
                            "url": "https://www.example.com/invite",
                            "mobile": {"appName": "Example", "route": "/invite"}}]
          }

        Identity: a domain by hostname; a Mobile App by "id" when given (a new app gets that
        id), else by "name"; a link by domain and key ("key" is required here). A link's
        mobile app is "appId" or, in this file only, "appName". Each entry is the whole
        object: a field left out takes its default. A new app's publishable key is printed
        once. FILE may be - for standard input.

          --dry-run   check and count, write nothing

        Exit status: 0 applied (or nothing to change), 1 invalid file or store failure, 2 usage.

        Examples:
          biqli-edge apply catalog.json
          biqli-edge apply --dry-run catalog.json
          BIQLI_EDGE_DATA_DIR=/var/lib/biqli biqli-edge apply - < catalog.json
        """

    static func run(_ args: [String]) -> Int32 {
        if CommandSetup.wantsHelp(args) {
            printOut(help)
            return 0
        }
        guard let options = ParsedOptions.parse(args, flags: ["dry-run"], values: ["config"], command: "apply")
        else { return 2 }
        guard options.positional.count == 1, let path = options.positional.first else {
            printError("biqli-edge apply: give exactly one FILE.json (see --help)")
            return 2
        }
        guard let configuration = CommandSetup.configuration(file: options.values["config"], command: "apply") else {
            return 2
        }
        guard let bytes = path == "-" ? readFile("/dev/stdin") : readFile(path) else {
            printError("biqli-edge apply: cannot read \(path)")
            return 1
        }
        let document: JSONValue
        do throws(CatalogImport.Unreadable) {
            document = try CatalogImport.parse(bytes)
        } catch {
            printError("biqli-edge apply: \(path) is not valid JSON: \(error.rule)")
            return 1
        }
        guard let store = CommandSetup.openStore(configuration, command: "apply") else { return 1 }
        let dryRun = options.flags.contains("dry-run")
        let outcome = CatalogImport.run(document, store: store, now: Int64(Clock.nowMilliseconds()), dryRun: dryRun)
        store.close()
        switch outcome {
        case .failure(.invalid(let problems)):
            for p in problems { printError("\(p.field): \(p.rule)") }
            printError("biqli-edge apply: \(problems.count) problem(s) in \(path); nothing was changed")
            return 1
        case .failure(.store(let message)):
            printError("biqli-edge apply: the store failed, nothing was changed: \(message)")
            return 1
        case .success(let report):
            printOut(summary(report, path: path, dryRun: dryRun))
            return 0
        }
    }

    static func summary(_ r: CatalogImport.Report, path: String, dryRun: Bool) -> String {
        func line(_ name: String, _ c: CatalogImport.Counts) -> String {
            "  \(name.padding(12))\(c.created) created, \(c.updated) updated, \(c.unchanged) unchanged"
        }
        var out: [String] = []
        out += r.changes.map { (dryRun ? "would have " : "") + $0 }
        out.append((dryRun ? "dry run of " : "applied ") + path + ":")
        out.append(line("domains", r.domains))
        out.append(line("mobile apps", r.mobileApps))
        out.append(line("tags", r.tags))
        out.append(line("links", r.links))
        let total = r.domains.total + r.mobileApps.total + r.tags.total + r.links.total
        if r.changes.isEmpty {
            out.append("Nothing to change: the \(total) object(s) of \(path) already match the store.")
        }
        for (name, id, key) in r.newKeys where !dryRun {
            out.append("Mobile App \"\(name)\" (\(id)) publishable key, shown once: \(key)")
        }
        if dryRun { out.append("Dry run: nothing was written.") }
        return out.joined(separator: "\n")
    }
}
