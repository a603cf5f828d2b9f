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

/// The running edge: the services it assembles from the configuration, started in the
/// order of their needs and stopped in reverse (`EdgeLifecycle`, issue 34 item 4).
final class EdgeApplication {
    let configuration: EdgeConfiguration
    let log: Log
    let server: HTTPServer
    /// The route tables (the edge's, and the console's on its listener), built once
    /// `services` (which holds the server) exists.
    let handler: ListenerDispatch
    let services: EdgeServices
    /// Every long-running part, from the store to the certificate manager.
    let lifecycle: EdgeLifecycle
    /// `serve --demo`: the console's one-time sign-in link for the demo key (path and query).
    private let demoSignIn: String?
    private let demo: DemoData.Created?
    /// Held for the process's lifetime: one `serve` per data directory.
    private let serveLock: ServeLock

    init(configuration: EdgeConfiguration, demo: Bool) throws(EdgeStartError) {
        self.configuration = configuration
        let log = Log(level: configuration.logLevel, node: configuration.node)
        self.log = log
        serveLock = try Self.directories(configuration, demo: demo, log: log)

        // One reader per loop, one for the console's background thread, and the last one
        // for the webhooks' outbox depth.
        let readers = configuration.loops + (configuration.consoleAddress == nil ? 0 : 1) + 1
        let backend = try StoreBackend.open(configuration, readers: readers, log: log)
        let store = backend.store
        if Clock.backMilliseconds > 0 { try Self.refuseTestClockOnRealDomains(store) }
        // Claimed before serving: a second process with this node's name stops at once.
        let heartbeat = try NodeHeartbeat.start(backend: backend, configuration: configuration, log: log)
        Self.warnAboutStoreFiles(backend, log: log)
        let keyring = try Self.receiptKeyring(configuration, store: store)
        let hasher = SourceAddressHasher(
            key: try EdgeSecrets.sourceAddressKey(dataDirectory: configuration.dataDirectory, backend: backend))
        let webhookSecrets = try Self.webhookSecrets(configuration: configuration, backend: backend, log: log)
        Self.warnAboutSecretFiles(configuration, log: log)
        let strings = try Self.strings(configuration)
        let geoIP = try Self.geoIP(configuration, log: log)
        let alpn = configuration.acme.enabled ? ALPNCertificates() : nil
        let certificateHealth = CertificateHealth(log: log)
        let clicks = ClickRecorder(store: store, loops: configuration.loops, log: log)
        let server = HTTPServer(
            configuration: Self.httpConfiguration(
                configuration, alpn: alpn, certificateHealth: certificateHealth, clicks: clicks, log: log))
        self.server = server
        var acme: CertificateAutomation?
        if let alpn {
            var isFleet = false
            if case .postgresql = backend { isFleet = true }
            acme = try CertificateAutomation(
                configuration: configuration, store: store, fleet: isFleet, server: server, alpn: alpn, log: log)
        }
        let resolver = try Self.resolver(
            configuration, backend: backend, keyring: keyring, hasher: hasher, server: server, log: log)
        let webhooks = try WebhookWiring.dispatcher(
            configuration: configuration, store: store, signal: backend.webhookSignal, secrets: webhookSecrets.keeper,
            log: log)
        services = EdgeServices(
            configuration: configuration, log: log, backend: backend, server: server, keyring: keyring,
            resolver: resolver, pages: Pages(strings: strings), sourceHasher: hasher, clicks: clicks,
            certificateHealth: certificateHealth, acme: acme, geoIP: geoIP, webhooks: webhooks,
            webhookSecrets: webhookSecrets.keeper)
        let pruner = Self.pruner(configuration, store: store, keyring: keyring, log: log)
        self.demo = try Self.demoData(demo, store: store)

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
        // Before the loops run: the start-up thread may still use loop 0's reader.
        demoSignIn = demo ? ConsoleAccess.demoSignIn(console, store: store, log: log) : nil
        let handler = ListenerDispatch(main: routes.build(), console: consoleRouter)
        self.handler = handler

        do throws(EdgeLifecycle.Problem) {
            lifecycle = try EdgeLifecycle([
                .store(store),
                .nodeHeartbeat(heartbeat),
                .retention(pruner),
                .fleetSync(resolver),
                .geoIP(geoIP),
                .console(console),
                .webhookSealing(webhookSecrets.sealing),
                .webhooks(webhooks, depthReaderLoop: readers - 1, releaseEveryLease: backend.name == "sqlite"),
                .server(server, handler: handler, heartbeat: heartbeat),
                .acme(acme, configuration: configuration, log: log),
            ])
        } catch {
            preconditionFailure("the edge's services: \(error)")
        }
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

    /// Starts every service, waits for SIGTERM/SIGINT (graceful stop: every service stops,
    /// the store last) and SIGHUP (certificate reload).
    func runUntilSignalled() -> Int32 {
        var set = EdgeApplication.handledSignals
        do {
            try lifecycle.start()
        } catch {
            printError("biqli-edge: \(error)")
            return 1
        }
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
        lifecycle.stop()
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
