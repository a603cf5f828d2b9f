import Certificates
import Core
import GeoIP
import HTTP
import Management
import Model
import Resolver
import Store
import Templates

/// The parts `EdgeApplication.init` assembles, each made from the configuration.
extension EdgeApplication {
    /// The data and certificate directories, the data directory's lock (one `serve` per
    /// directory) and the self-signed certificate for `localhost`.
    static func directories(_ configuration: EdgeConfiguration, demo: Bool, log: Log) throws(EdgeStartError)
        -> ServeLock
    {
        guard makeDirectories(configuration.dataDirectory) else {
            throw .io("cannot create the data directory \(configuration.dataDirectory)")
        }
        let lock = try ServeLock(directory: configuration.dataDirectory)
        guard makeDirectories(configuration.certificateDirectory) else {
            throw .io("cannot create the certificate directory \(configuration.certificateDirectory)")
        }
        try SelfSignedCertificate.ensure(
            directory: configuration.certificateDirectory, hostnames: ["localhost"] + (demo ? DemoData.hostnames : []),
            log: log)
        return lock
    }

    /// The store's secret files that were readable by others, made private.
    static func warnAboutStoreFiles(_ backend: StoreBackend, log: Log) {
        if case .sqlite(let file) = backend {
            for made in file.filesMadePrivate {
                log.warn(
                    "secret file was readable by others; made private",
                    [("path", .string(made.path)), ("mode", .string(SecretFileModes.octal(made.mode)))])
            }
        }
    }

    /// The configured secret files readable by others: made private, or warned about.
    static func warnAboutSecretFiles(_ configuration: EdgeConfiguration, log: Log) {
        for file in SecretFileModes.enforce(configuration) {
            log.warn(
                file.madePrivate
                    ? "secret file was readable by others; made private"
                    : "certificate file with a private key is readable by others; make it 0600",
                [("path", .string(file.path)), ("mode", .string(SecretFileModes.octal(file.mode)))])
        }
    }

    static func receiptKeyring(_ configuration: EdgeConfiguration, store: any Store) throws(EdgeStartError)
        -> ReceiptKeyring
    {
        do {
            return try ReceiptKeyring(
                store: store,
                configuration: .init(rotationIntervalSeconds: configuration.signingKeyRotationSeconds),
                now: Int64(Clock.nowMilliseconds()))
        } catch {
            throw .store("cannot load the receipt signing keys: \(error)")
        }
    }

    /// The pages' strings: built in, or `BIQLI_EDGE_LANGUAGES_DIR`'s.
    static func strings(_ configuration: EdgeConfiguration) throws(EdgeStartError) -> StringCatalog {
        guard let dir = configuration.languagesDirectory else { return StringCatalog.builtIn }
        do {
            return try StringCatalog.loading(directory: dir)
        } catch {
            throw .io("BIQLI_EDGE_LANGUAGES_DIR: \(error)")
        }
    }

    /// `BIQLI_EDGE_GEOIP_DB`'s database, watched for a new file (`start`); nil without one.
    static func geoIP(_ configuration: EdgeConfiguration, log: Log) throws(EdgeStartError) -> GeoIPLookup? {
        guard let path = configuration.geoIPDatabase else { return nil }
        do {
            return try GeoIPLookup(
                path: path, loops: configuration.loops, checkIntervalMilliseconds: 2_000,
                onEvent: { event in
                    switch event {
                    case .loaded(let path, let type, let built):
                        log.info(
                            "GeoIP database loaded",
                            [("path", .string(path)), ("type", .string(type)), ("built", .int(Int64(built)))])
                    case .failed(let error):
                        log.error("GeoIP database unusable; the previous one stays", [("detail", .string("\(error)"))])
                    }
                })
        } catch {
            throw .io("BIQLI_EDGE_GEOIP_DB: \(error)")
        }
    }

    /// The listeners and loops; each loop's clicks written after its pass.
    static func httpConfiguration(
        _ configuration: EdgeConfiguration, alpn: ALPNCertificates?, certificateHealth: CertificateHealth,
        clicks: ClickRecorder, log: Log
    ) -> HTTPServerConfiguration {
        var http = HTTPServerConfiguration()
        http.loops = configuration.loops
        http.httpAddress = configuration.httpAddress
        http.httpsAddress = configuration.httpsAddress
        http.metricsAddress = configuration.metricsAddress
        http.consoleAddress = configuration.consoleAddress
        http.certificateDirectory = configuration.certificateDirectory
        http.maxConnections = configuration.maxConnections
        http.accessLog = configuration.accessLog
        // A request's work logs through `RequestContext.logger`: this log, with its route and id.
        http.logger = log
        // A customer's external ID is the workspace's name for a person: never in the logs.
        http.accessLogRedactedPrefixes = ["/api/v1/customers/", "/console/customers/"]
        http.nodeName = configuration.node
        http.timeouts = configuration.timeouts
        http.proxyProtocol = configuration.proxyProtocol
        http.trustedProxies = configuration.trustedProxies
        http.shutdownGraceMilliseconds = configuration.shutdownGraceMilliseconds
        http.alpnCertificates = alpn
        http.onCertificatesLoaded = { set, reload in certificateHealth.record(set, reload: reload) }
        http.afterEachPass = { loop in clicks.flush(loop: loop) }
        return http
    }

    static func resolver(
        _ configuration: EdgeConfiguration, backend: StoreBackend, keyring: ReceiptKeyring,
        hasher: SourceAddressHasher, server: HTTPServer, log: Log
    ) throws(EdgeStartError) -> Resolver {
        let limits = configuration.rateLimits
        let resolverFailures = LogThrottle("resolver failure", log: log)
        return Resolver(
            store: backend.store, keyring: keyring, sourceAddressHasher: hasher,
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
    }

    /// The retention pass, every 10 minutes. It doubles as the maintenance tick: receipt
    /// signing keys rotate on it when due.
    static func pruner(_ configuration: EdgeConfiguration, store: any Store, keyring: ReceiptKeyring, log: Log)
        -> RetentionPruner
    {
        RetentionPruner(
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
    }

    /// `serve --demo`'s apps, links and key; nil without `--demo`.
    static func demoData(_ demo: Bool, store: any Store) throws(EdgeStartError) -> DemoData.Created? {
        guard demo else { return nil }
        do {
            return try DemoData.install(into: store)
        } catch {
            throw .store("cannot install the demo data: \(error)")
        }
    }
}
