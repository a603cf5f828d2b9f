import Certificates
import Console
import Core
import GeoIP
import HTTP
import Management
import Model
import Resolver
import Store
import Templates
import Webhooks

#if canImport(Glibc)
import Glibc
#endif

/// The running edge: configuration, storage, the route table and the HTTP server, wired together.
final class EdgeApplication {
    let configuration: EdgeConfiguration
    let log: Log
    let server: HTTPServer
    /// The route tables (the edge's, and the console's on its listener), built once
    /// `services` (which holds the server) exists.
    let handler: ListenerDispatch
    let services: EdgeServices
    /// The store reader the webhooks' depth thread takes.
    private let webhooksReaderLoop: Int
    /// The operator console; nil when `BIQLI_EDGE_CONSOLE_ADDR` is off.
    private let console: Console?
    /// `serve --demo`: the console's one-time sign-in link for the demo key (path and query).
    private let demoSignIn: String?
    private let pruner: RetentionPruner
    private let demo: DemoData.Created?
    /// Held for the process's lifetime: one `serve` per data directory.
    private let serveLock: ServeLock
    /// On PostgreSQL: the node's row in `nodes`, and its name held (`NodeHeartbeat`).
    private let heartbeat: PGNodeHeartbeat?
    /// Seals the webhooks' signing secrets stored as such (decision 0031).
    private let webhookSealing: WebhookSecretSealing

    init(configuration: EdgeConfiguration, demo: Bool) throws(EdgeStartError) {
        self.configuration = configuration
        let log = Log(level: configuration.logLevel, node: configuration.node)
        self.log = log
        guard makeDirectories(configuration.dataDirectory) else {
            throw .io("cannot create the data directory \(configuration.dataDirectory)")
        }
        serveLock = try ServeLock(directory: configuration.dataDirectory)
        guard makeDirectories(configuration.certificateDirectory) else {
            throw .io("cannot create the certificate directory \(configuration.certificateDirectory)")
        }
        try SelfSignedCertificate.ensure(
            directory: configuration.certificateDirectory, hostnames: ["localhost"] + (demo ? DemoData.hostnames : []),
            log: log)

        // One reader per loop, one for the console's background thread, and the last one
        // for the webhooks' outbox depth.
        let readers = configuration.loops + (configuration.consoleAddress == nil ? 0 : 1) + 1
        let backend = try StoreBackend.open(configuration, readers: readers, log: log)
        let store = backend.store
        if Clock.backMilliseconds > 0 { try Self.refuseTestClockOnRealDomains(store) }
        heartbeat = try NodeHeartbeat.start(backend: backend, configuration: configuration, log: log)
        if case .sqlite(let file) = backend {
            for made in file.filesMadePrivate {
                log.warn(
                    "secret file was readable by others; made private",
                    [("path", .string(made.path)), ("mode", .string(SecretFileModes.octal(made.mode)))])
            }
        }
        let now = Int64(Clock.nowMilliseconds())
        let keyring: ReceiptKeyring
        do {
            keyring = try ReceiptKeyring(
                store: store,
                configuration: .init(rotationIntervalSeconds: configuration.signingKeyRotationSeconds), now: now)
        } catch {
            throw .store("cannot load the receipt signing keys: \(error)")
        }
        let hasher = SourceAddressHasher(
            key: try EdgeSecrets.sourceAddressKey(dataDirectory: configuration.dataDirectory, backend: backend))
        let webhookSecrets = try Self.webhookSecrets(configuration: configuration, backend: backend, log: log)
        webhookSealing = webhookSecrets.sealing
        for file in SecretFileModes.enforce(configuration) {
            log.warn(
                file.madePrivate
                    ? "secret file was readable by others; made private"
                    : "certificate file with a private key is readable by others; make it 0600",
                [("path", .string(file.path)), ("mode", .string(SecretFileModes.octal(file.mode)))])
        }
        var strings = StringCatalog.builtIn
        if let dir = configuration.languagesDirectory {
            do {
                strings = try StringCatalog.loading(directory: dir)
            } catch {
                throw .io("BIQLI_EDGE_LANGUAGES_DIR: \(error)")
            }
        }

        var geoIP: GeoIPLookup?
        if let path = configuration.geoIPDatabase {
            do {
                geoIP = try GeoIPLookup(
                    path: path, loops: configuration.loops, checkIntervalMilliseconds: 2_000,
                    onEvent: { event in
                        switch event {
                        case .loaded(let path, let type, let built):
                            log.info(
                                "GeoIP database loaded",
                                [("path", .string(path)), ("type", .string(type)), ("built", .int(Int64(built)))])
                        case .failed(let error):
                            log.error(
                                "GeoIP database unusable; the previous one stays", [("detail", .string("\(error)"))])
                        }
                    })
            } catch {
                throw .io("BIQLI_EDGE_GEOIP_DB: \(error)")
            }
        }

        var http = HTTPServerConfiguration()
        http.loops = configuration.loops
        http.httpAddress = configuration.httpAddress
        http.httpsAddress = configuration.httpsAddress
        http.metricsAddress = configuration.metricsAddress
        http.consoleAddress = configuration.consoleAddress
        http.certificateDirectory = configuration.certificateDirectory
        http.maxConnections = configuration.maxConnections
        http.accessLog = configuration.accessLog
        // A customer's external ID is the workspace's name for a person: never in the logs.
        http.accessLogRedactedPrefixes = ["/api/v1/customers/", "/console/customers/"]
        http.nodeName = configuration.node
        http.timeouts = configuration.timeouts
        http.proxyProtocol = configuration.proxyProtocol
        http.trustedProxies = configuration.trustedProxies
        http.shutdownGraceMilliseconds = configuration.shutdownGraceMilliseconds
        let alpn = configuration.acme.enabled ? ALPNCertificates() : nil
        http.alpnCertificates = alpn
        let certificateHealth = CertificateHealth(log: log)
        http.onCertificatesLoaded = { set, reload in certificateHealth.record(set, reload: reload) }
        let clicks = ClickRecorder(store: store, loops: configuration.loops, log: log)
        http.afterEachPass = { loop in clicks.flush(loop: loop) }
        let server = HTTPServer(configuration: http)
        self.server = server
        var acme: CertificateAutomation?
        if let alpn {
            var isFleet = false
            if case .postgresql = backend { isFleet = true }
            acme = try CertificateAutomation(
                configuration: configuration, store: store, fleet: isFleet, server: server, alpn: alpn, log: log)
        }

        let limits = configuration.rateLimits
        let resolverFailures = LogThrottle("resolver failure", log: log)
        let resolver = Resolver(
            store: store, keyring: keyring, sourceAddressHasher: hasher,
            configuration: .init(
                publicURL: configuration.publicURL,
                limits: RateLimits(
                    perApp: limits.perApp, perSourceAddress: limits.perAddress, perAppInstance: limits.perInstance,
                    perHandoffToken: limits.perToken, failuresPerSourceAddress: limits.invalidPerAddress,
                    trackClickPerAddress: limits.clickPerAddress, trackClickPerKey: limits.clickPerKey,
                    conversionsPerKey: limits.conversionsPerKey),
                onInternalError: { message in resolverFailures.write { [("detail", .string(message))] } }),
            httpsActive: { host in server.certificates.covers(host) },
            resumeOnLoop: { loop, work in server.post(toLoop: loop, work) },
            fleet: try backend.fleetCounters(node: configuration.node))
        let webhooks = try WebhookWiring.dispatcher(
            configuration: configuration, store: store, signal: backend.webhookSignal, secrets: webhookSecrets.keeper,
            log: log)
        webhooksReaderLoop = readers - 1
        services = EdgeServices(
            configuration: configuration, log: log, backend: backend, server: server, keyring: keyring,
            resolver: resolver, pages: Pages(strings: strings), sourceHasher: hasher, clicks: clicks,
            certificateHealth: certificateHealth, acme: acme, geoIP: geoIP, webhooks: webhooks,
            webhookSecrets: webhookSecrets.keeper)
        // The pruner's periodic pass doubles as the maintenance tick: receipt signing keys
        // rotate on it when due.
        pruner = RetentionPruner(
            store: store, maxAgeMilliseconds: Int64(configuration.retentionDays) * 86_400_000,
            intervalMilliseconds: 600_000,
            onPass: { result in
                if case .failure(let error) = result {
                    log.error("retention pass failed", [("detail", .string("\(error)"))])
                }
                do {
                    if try keyring.rotateIfDue(now: Int64(Clock.nowMilliseconds())) {
                        log.info("receipt signing key rotated")
                    }
                } catch {
                    log.error("receipt key rotation failed", [("detail", .string("\(error)"))])
                }
            })

        if demo {
            do {
                self.demo = try DemoData.install(into: store)
            } catch {
                throw .store("cannot install the demo data: \(error)")
            }
        } else {
            self.demo = nil
        }
        let routes = RouterBuilder()
        EdgeRoutes.install(on: routes, services: services)
        let services = self.services
        var console: Console?
        var consoleRouter: Router?
        if configuration.consoleAddress != nil {
            let made = ConsoleRoutes.makeConsole(services: services)
            console = made
            consoleRouter = ConsoleRoutes.router(console: made, services: services)
        }
        self.console = console
        // Before the loops run: the start-up thread may still use loop 0's reader.
        demoSignIn = demo ? ConsoleAccess.demoSignIn(console, store: store, log: log) : nil
        handler = ListenerDispatch(main: routes.build(), console: consoleRouter)
    }

    /// The signals `runUntilSignalled` waits for. `blockSignals` must run before any
    /// thread exists (the store's writer starts in `init`): every thread inherits the
    /// mask, so that only the main thread's `sigwait` takes them. A thread that did not
    /// block SIGTERM would receive one sent before the main thread waits, and the
    /// default action would end the process at once, without the graceful stop.
    static let handledSignals: sigset_t = {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, s) }
        return set
    }()

    static func blockSignals() {
        var set = handledSignals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts serving, waits for SIGTERM/SIGINT (graceful stop) and SIGHUP (certificate reload).
    func runUntilSignalled() -> Int32 {
        var set = EdgeApplication.handledSignals
        // Before the loops serve: on SQLite the secrets stored as such are sealed now.
        webhookSealing.start()
        do {
            try server.start(handler: handler)
        } catch {
            webhookSealing.stop()
            heartbeat?.stop()
            printError("biqli-edge: \(error)")
            return 1
        }
        pruner.start()
        services.geoIP?.start()
        if let acme = services.acme {
            acme.start()
            log.info(
                "ACME on: ordering certificates for the configured domains",
                [
                    ("directory", .string(configuration.acme.directory)),
                    ("challenges", .array(acme.manager.settings.challenges.map { .string($0.rawValue) })),
                ])
        }
        console?.start()
        services.webhooks?.start(
            depthReaderLoop: webhooksReaderLoop, releaseEveryLease: services.backend.name == "sqlite")
        heartbeat?.update(listening: NodeHeartbeat.listening(server))
        let certs = server.certificates
        log.info(
            "listening",
            server.boundAddresses.map { kind, address in ("\(kind)", .string(address.description)) } + [
                ("loops", .int(Int64(server.loopCount))),
                ("proxyProtocol", .string(server.configuration.proxyProtocol.rawValue)),
                ("certificates", .array(certs.hostnames.map { .string($0) })),
            ])
        if let address = server.boundAddresses.first(where: { $0.0 == .console })?.1,
            !ConsoleAccess.isLoopback(address.host)
        {
            log.warn(
                "console listener is not loopback: put a TLS terminator in front of it",
                [("console", .string(address.description))])
        }
        if let problem = SDKBaseURL.problem(publicURL: configuration.publicURL) {
            log.warn(
                "the official SDKs cannot use this edge's public URL as their API base URL",
                [
                    ("publicUrl", .string(configuration.publicURL)), ("reason", .string(problem)),
                    ("fix", .string("serve HTTPS on port 443 and set BIQLI_EDGE_PUBLIC_URL to it")),
                ])
        }
        if let demo {
            // Standard error: standard output is the JSON log stream, one object per line,
            // which log shippers parse; the banner is for the person at the terminal.
            printError(
                DemoBanner.text(
                    created: demo, server: server, consoleSignIn: demoSignIn, publicURL: configuration.publicURL))
        }
        while true {
            var signal: Int32 = 0
            sigwait(&set, &signal)
            if signal == SIGHUP {
                server.reloadCertificates()  // logged by CertificateHealth
                continue
            }
            log.info("shutting down", [("signal", .int(Int64(signal)))])
            break
        }
        server.shutdown()
        services.acme?.stop()
        server.wait()
        services.webhooks?.stop()
        webhookSealing.stop()
        console?.stop()
        services.geoIP?.stop()
        services.resolver.stopFleetSync()
        pruner.stop()
        heartbeat?.stop()
        services.store.close()
        log.info("stopped")
        return 0
    }
}

extension EdgeApplication {
    /// The test clock (`BIQLI_EDGE_TEST_CLOCK_BACK_MS`) on a store that holds a domain
    /// anyone could own: refused before anything is written or served.
    static func refuseTestClockOnRealDomains(_ store: any Store) throws(EdgeStartError) {
        let domains: [Domain]
        do { domains = try store.reader(loop: 0).domains() } catch { throw .store("cannot read the domains: \(error)") }
        if let real = domains.first(where: { !TestHostnames.isReserved($0.hostname) }) {
            throw .io(
                "\(EdgeConfiguration.testClockBackVariable) is a test setting: refused on a store that serves "
                    + "\(real.hostname) (only test names such as *.test and example.com may be domains)")
        }
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
