import Core
import GeoIP
import HTTP
import HTTPMessages
import Management
import Model
import Resolver
import Store
import Templates
import Webhooks

/// What route handlers need, built once at start-up and shared by every loop.
final class EdgeServices: Sendable {
    let configuration: EdgeConfiguration
    let log: Log
    let backend: StoreBackend
    let store: any Store
    let server: HTTPServer
    let keyring: ReceiptKeyring
    let resolver: Resolver
    let pages: Pages
    let sourceHasher: SourceAddressHasher
    let clients: ClientAddressResolver
    /// Countries of clicks (`BIQLI_EDGE_GEOIP_DB`); nil without a database.
    let geoIP: GeoIPLookup?
    let clicks: ClickRecorder
    let deepViews: DeepViewCache
    let certificateHealth: CertificateHealth
    /// `BIQLI_EDGE_ACME=on`: the certificate manager and its wiring.
    let acme: CertificateAutomation?
    /// Outgoing webhooks' delivery threads (decision 0028).
    let webhooks: WebhookDispatcher?
    /// The console's background counts, for `/metrics` (when the console is on).
    let consoleMetrics = ConsoleMetrics()
    /// The keyring that seals their signing secrets, and whether to (decision 0031).
    let webhookSecrets: WebhookSecretKeeper?

    init(
        configuration: EdgeConfiguration, log: Log, backend: StoreBackend, server: HTTPServer, keyring: ReceiptKeyring,
        resolver: Resolver, pages: Pages, sourceHasher: SourceAddressHasher, clicks: ClickRecorder,
        certificateHealth: CertificateHealth, acme: CertificateAutomation?, geoIP: GeoIPLookup? = nil,
        webhooks: WebhookDispatcher? = nil, webhookSecrets: WebhookSecretKeeper? = nil
    ) {
        self.configuration = configuration
        self.log = log
        self.backend = backend
        self.store = backend.store
        self.server = server
        self.keyring = keyring
        self.resolver = resolver
        self.pages = pages
        self.sourceHasher = sourceHasher
        self.clients = ClientAddressResolver(trusted: configuration.trustedProxies)
        self.geoIP = geoIP
        self.clicks = clicks
        self.certificateHealth = certificateHealth
        self.acme = acme
        self.webhooks = webhooks
        self.webhookSecrets = webhookSecrets
        self.deepViews = DeepViewCache(pages: pages, loops: configuration.loops)
    }

    /// The store reader of the loop serving the request.
    func reader(_ context: RequestContext) -> any StoreReader { store.reader(loop: context.loopIndex) }

    /// True when a valid certificate covers `hostname` (the API's `httpsActive`).
    func httpsActive(_ hostname: String) -> Bool { server.certificates.covers(hostname) }

    var nowMilliseconds: Int64 { Int64(Clock.nowMilliseconds()) }

    /// The API's `certificate` of a domain: what serves it now (by name), and the state of
    /// its ACME orders when there are any.
    func certificate(_ hostname: String) -> DomainCertificate {
        let set = server.certificates
        let managed = acme?.manager.state(of: hostname)
        var view = DomainCertificate()
        switch set.origin(of: hostname) {
        case .directory: view.source = .directory
        case .selfSigned: view.source = .selfSigned
        case .supplied: view.source = .acme
        case nil: view.source = managed == nil ? .none : .acme
        }
        if view.source != .none, set.origin(of: hostname) != nil {
            view.notAfter = set.namedExpiry(of: hostname).map { $0 * 1_000 }
            view.issuer = set.issuer(of: hostname)
            view.status = set.covers(hostname) ? .valid : .expired
        } else if let managed {
            view.status = managed.lastErrorType == nil ? .pending : .failed
        }
        if let managed {
            if let type = managed.lastErrorType {
                view.lastError = DomainCertificate.Problem(type: type, detail: managed.lastErrorDetail ?? "")
            }
            // After a failure: the retry; with a certificate of its own: the renewal.
            view.nextAttemptAt =
                managed.lastErrorType != nil
                ? managed.nextAttemptAt : (set.origin(of: hostname) == .supplied ? managed.renewalAt : nil)
        }
        return view
    }
}

extension HTTPResponse {
    /// JSON with `Cache-Control: no-store`.
    static func json(_ status: Int, _ value: JSONValue, headers extra: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        headers.add("Cache-Control", "no-store")
        for (n, v) in extra { headers.add(n, v) }
        return HTTPResponse(status: status, headers: headers, body: value.jsonBytes)
    }
}
