import Core

/// Everything the transport needs to run. Defaults suit a small production edge.
public struct HTTPServerConfiguration: Sendable {
    /// A socket address to listen on.
    public struct Address: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Parses `host:port`, `[v6]:port` or `:port` (all addresses). Nil when malformed.
        public init?(parsing text: String) {
            var hostPart: Substring
            var portPart: Substring
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { return nil }
                hostPart = text[text.index(after: text.startIndex)..<close]
                let rest = text[text.index(after: close)...]
                guard rest.hasPrefix(":") else { return nil }
                portPart = rest.dropFirst()
            } else {
                guard let colon = text.lastIndex(of: ":") else { return nil }
                hostPart = text[..<colon]
                portPart = text[text.index(after: colon)...]
                if hostPart.contains(":") { return nil }
            }
            guard let port = Int(portPart), (0...65535).contains(port) else { return nil }
            if hostPart.isEmpty { hostPart = "0.0.0.0" }
            self.host = String(hostPart)
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// Event-loop threads; each has its own epoll and its own `SO_REUSEPORT` listeners.
    public var loops: Int = 1
    public var httpAddress: Address? = Address(host: "0.0.0.0", port: 8080)
    public var httpsAddress: Address? = Address(host: "0.0.0.0", port: 8443)
    /// A separate plain listener for `/metrics`, when the operator wants one.
    public var metricsAddress: Address? = nil
    /// A separate plain listener for the operator console, when it is on.
    public var consoleAddress: Address? = nil
    /// Directory of `<hostname>.pem` files (certificate chain and private key).
    public var certificateDirectory: String? = nil
    public var limits: HTTPLimits = HTTPLimits()
    public var timeouts: HTTPTimeouts = HTTPTimeouts()
    /// Open connections allowed across all loops; past it, accepting pauses.
    public var maxConnections: Int = 10_000
    /// Output bytes buffered per connection before the server stops reading from it.
    public var outputHighWaterMark: Int = 256 * 1024
    /// Listen backlog.
    public var backlog: Int32 = 1024
    /// `Strict-Transport-Security` value on HTTPS responses; nil sends none.
    public var hstsValue: String? = "max-age=31536000"
    /// The operational log (not the access log): `RequestContext.logger` writes through
    /// it, with the request's route and id. Default: nothing written (tests, tools).
    public var logger: Logger = .discarding
    /// Write one JSON line per request to standard output.
    public var accessLog: Bool = true
    /// Path prefixes whose rest the access log writes as `{redacted}` (paths that name a
    /// person). Prefixes are written as they are: plain characters that need no escaping.
    public var accessLogRedactedPrefixes: [String] = []
    /// The process's node name, written as `node` in every access-log line (nil: none).
    public var nodeName: String? = nil
    /// Called on each loop's thread after every pass over its ready events (with the
    /// loop's index): a place to hand work accumulated by handlers to other threads
    /// in one batch instead of once per request.
    public var afterEachPass: (@Sendable (Int) -> Void)? = nil
    /// Called after every load of the certificate directory (at start, then on each
    /// reload, with `true`), on the thread that loaded it: to log and count problems.
    public var onCertificatesLoaded: (@Sendable (CertificateSet, _ reload: Bool) -> Void)? = nil
    /// Certificates presented only to clients that offer ALPN `acme-tls/1` (TLS-ALPN-01
    /// validations); nil: none ever are, and handshakes do not look for that offer.
    public var alpnCertificates: ALPNCertificates? = nil
    /// The PROXY protocol on the HTTP and HTTPS listeners (decision 0015; not on the
    /// metrics and console listeners, which no load balancer fronts).
    public var proxyProtocol: ProxyProtocolMode = .off
    /// The peers allowed to send a PROXY header (the load balancers); from any other, one
    /// is refused.
    public var trustedProxies: [CIDR] = []
    /// How long graceful shutdown waits for in-flight requests before closing everything.
    public var shutdownGraceMilliseconds: Int = 10_000

    public init() {}
}
