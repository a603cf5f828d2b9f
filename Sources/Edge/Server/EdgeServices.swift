import Core
import GeoIP
import HTTP
import HTTPTypes
import Model
import Resolver
import Store
import Templates

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

    init(
        configuration: EdgeConfiguration, log: Log, backend: StoreBackend, server: HTTPServer, keyring: ReceiptKeyring,
        resolver: Resolver, pages: Pages, sourceHasher: SourceAddressHasher, clicks: ClickRecorder,
        certificateHealth: CertificateHealth, geoIP: GeoIPLookup? = nil
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
        self.deepViews = DeepViewCache(pages: pages, loops: configuration.loops)
    }

    /// The store reader of the loop serving the request.
    func reader(_ context: RequestContext) -> any StoreReader { store.reader(loop: context.loopIndex) }

    /// True when a valid certificate covers `hostname` (the API's `httpsActive`).
    func httpsActive(_ hostname: String) -> Bool { server.certificates.covers(hostname) }

    var nowMilliseconds: Int64 { Int64(Clock.nowMilliseconds()) }
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
