import Core
import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// `biqli-edge serve`: runs the edge until SIGTERM or SIGINT; SIGHUP reloads certificates.
enum ServeCommand {
    static var help: String {
        var text = """
            Usage: biqli-edge serve [--config FILE] [--demo]

            Runs the edge: short links, Deep View, association files, the resolver and the
            workspace API on the HTTP and HTTPS listeners.

              --config FILE   JSON settings (keys below in camelCase, e.g. "httpAddr")
              --demo          zero set-up: a demo data directory under ./demo-data, a self-signed
                              certificate, a demo workspace key, app and links, and curl examples

            Signals: SIGTERM/SIGINT stop gracefully; SIGHUP reloads certificates.

            Settings (environment wins over the file):

            """
        for s in EdgeConfiguration.settings {
            text += "  \(s.variable.padding(36)) \(s.help)\n"
        }
        text += """

            Examples:
              biqli-edge serve --demo
              BIQLI_EDGE_HTTPS_ADDR=:443 BIQLI_EDGE_HTTP_ADDR=:80 biqli-edge serve --config /etc/biqli/edge.json
            """
        return text
    }

    static func run(_ args: [String]) -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            printOut(help)
            return 0
        }
        guard let options = ParsedOptions.parse(args, flags: ["demo"], values: ["config"], command: "serve"),
            options.positional.isEmpty
        else {
            if !args.isEmpty { printError("biqli-edge serve: unexpected arguments (see --help)") }
            return 2
        }
        var environment = EdgeCommand.environment()
        let demo = options.flags.contains("demo")
        if demo, environment["BIQLI_EDGE_DATA_DIR"] == nil, options.values["config"] == nil {
            environment["BIQLI_EDGE_DATA_DIR"] = "./demo-data"
        }
        let configuration: EdgeConfiguration
        do {
            configuration = try EdgeConfiguration.load(file: options.values["config"], environment: environment)
        } catch {
            printError("biqli-edge: \(error)")
            return 2
        }
        if let back = configuration.testClockBackMilliseconds, back > 0 {
            // A test's setting only: with the demo, on a store of test names alone (checked
            // once the store is open), never on an edge that serves real links (decision 0026).
            guard demo else {
                printError(
                    "biqli-edge: \(EdgeConfiguration.testClockBackVariable) is a test setting: it needs `serve --demo` "
                        + "(remove it from the service's environment)")
                return 2
            }
            // Before anything reads the time: the demo's rows, the store's clock, the loops.
            Clock.setBack(milliseconds: back)
            printError(
                "biqli-edge: \(EdgeConfiguration.testClockBackVariable): the clock is set \(back) ms back (tests only)")
        }
        EdgeApplication.blockSignals()
        let app: EdgeApplication
        do {
            app = try EdgeApplication(configuration: configuration, demo: demo)
        } catch {
            printError("biqli-edge: \(error)")
            return 1
        }
        return app.runUntilSignalled()
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
