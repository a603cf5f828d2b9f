import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// The running edge: configuration, storage, the route table and the HTTP server, wired together.
final class EdgeApplication: @unchecked Sendable {
    let configuration: EdgeConfiguration
    let log: Log
    let server: HTTPServer
    let router: Router

    init(configuration: EdgeConfiguration, demo: Bool) throws(EdgeStartError) {
        self.configuration = configuration
        self.log = Log(level: configuration.logLevel)
        guard makeDirectories(configuration.dataDirectory) else {
            throw .io("cannot create the data directory \(configuration.dataDirectory)")
        }
        guard makeDirectories(configuration.certificateDirectory) else {
            throw .io("cannot create the certificate directory \(configuration.certificateDirectory)")
        }
        try SelfSignedCertificate.ensure(
            directory: configuration.certificateDirectory, hostnames: ["localhost"] + (demo ? DemoData.hostnames : []),
            log: log)

        var http = HTTPServerConfiguration()
        http.loops = configuration.loops
        http.httpAddress = configuration.httpAddress
        http.httpsAddress = configuration.httpsAddress
        http.metricsAddress = configuration.metricsAddress
        http.certificateDirectory = configuration.certificateDirectory
        http.maxConnections = configuration.maxConnections
        http.accessLog = configuration.accessLog
        http.timeouts = configuration.timeouts
        http.shutdownGraceMilliseconds = configuration.shutdownGraceMilliseconds
        router = Router()
        server = HTTPServer(configuration: http, handler: router)
        OperationsRoutes.install(on: router, server: server, configuration: configuration)
    }

    /// Starts serving, waits for SIGTERM/SIGINT (graceful stop) and SIGHUP (certificate reload).
    func runUntilSignalled() -> Int32 {
        // Block the signals before any thread exists so that every thread inherits the mask
        // and only `sigwait` below sees them.
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        do {
            try server.start()
        } catch {
            printError("biqli-edge: \(error)")
            return 1
        }
        let certs = server.certificates
        for problem in certs.problems { log.warn("certificate problem", [("detail", .string(problem))]) }
        log.info(
            "listening",
            server.boundAddresses.map { kind, address in ("\(kind)", .string(address.description)) } + [
                ("loops", .int(Int64(server.loopCount))),
                ("certificates", .array(certs.hostnames.map { .string($0) })),
            ])
        while true {
            var signal: Int32 = 0
            sigwait(&set, &signal)
            if signal == SIGHUP {
                let reloaded = server.reloadCertificates()
                log.info(
                    "certificates reloaded",
                    [
                        ("certificates", .array(reloaded.hostnames.map { .string($0) })),
                        ("problems", .array(reloaded.problems.map { .string($0) })),
                    ])
                continue
            }
            log.info("shutting down", [("signal", .int(Int64(signal)))])
            break
        }
        server.shutdown()
        server.wait()
        log.info("stopped")
        return 0
    }
}

enum EdgeStartError: Error, CustomStringConvertible {
    case io(String)
    case store(String)

    var description: String {
        switch self {
        case .io(let m), .store(let m): return m
        }
    }
}
