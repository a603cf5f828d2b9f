/// Counters of one event loop. Touched only by its own thread; read by taking a
/// snapshot on that thread (`HTTPServer.metrics`), so the hot path has no atomics
/// and no locks.
struct LoopMetrics {
    struct RouteStatus: Hashable {
        var route: String
        var status: Int
    }

    /// Upper bounds of the latency histogram, in seconds.
    static let latencyBounds: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    var requests: [RouteStatus: UInt64] = [:]
    /// One counter per bound plus +Inf.
    var latencyBuckets = [UInt64](repeating: 0, count: LoopMetrics.latencyBounds.count + 1)
    var latencySumSeconds: Double = 0
    var latencyCount: UInt64 = 0
    var openConnections: Int = 0
    var acceptedConnections: UInt64 = 0
    var handshakesFull: UInt64 = 0
    var handshakesResumed: UInt64 = 0
    var handshakesFailed: UInt64 = 0
    var parseErrors: [Int: UInt64] = [:]
    var timeouts: [String: UInt64] = [:]
    var acceptPauses: UInt64 = 0
    var shedConnections: UInt64 = 0
    var proxyHeadersV1: UInt64 = 0
    var proxyHeadersV2: UInt64 = 0
    /// By `ProxyRefusal.rawValue`.
    var proxyRefused = [UInt64](repeating: 0, count: ProxyRefusal.allCases.count)

    mutating func recordRequest(route: String, status: Int, nanoseconds: UInt64) {
        requests[RouteStatus(route: route, status: status), default: 0] += 1
        let seconds = Double(nanoseconds) / 1e9
        latencySumSeconds += seconds
        latencyCount += 1
        var i = 0
        while i < LoopMetrics.latencyBounds.count && seconds > LoopMetrics.latencyBounds[i] { i += 1 }
        latencyBuckets[i] += 1
    }
}

/// A point-in-time copy of every loop's counters, rendered as Prometheus text.
public struct MetricsSnapshot: Sendable {
    var loops: [LoopMetricsCopy]

    struct LoopMetricsCopy: Sendable {
        var requests: [(String, Int, UInt64)]
        var latencyBuckets: [UInt64]
        var latencySumSeconds: Double
        var latencyCount: UInt64
        var openConnections: Int
        var acceptedConnections: UInt64
        var handshakesFull: UInt64
        var handshakesResumed: UInt64
        var handshakesFailed: UInt64
        var parseErrors: [(Int, UInt64)]
        var timeouts: [(String, UInt64)]
        var acceptPauses: UInt64
        var shedConnections: UInt64
        var proxyHeadersV1: UInt64
        var proxyHeadersV2: UInt64
        var proxyRefused: [UInt64]

        init(_ m: LoopMetrics) {
            requests = m.requests.map { ($0.key.route, $0.key.status, $0.value) }
            latencyBuckets = m.latencyBuckets
            latencySumSeconds = m.latencySumSeconds
            latencyCount = m.latencyCount
            openConnections = m.openConnections
            acceptedConnections = m.acceptedConnections
            handshakesFull = m.handshakesFull
            handshakesResumed = m.handshakesResumed
            handshakesFailed = m.handshakesFailed
            parseErrors = m.parseErrors.map { ($0.key, $0.value) }
            timeouts = m.timeouts.map { ($0.key, $0.value) }
            acceptPauses = m.acceptPauses
            shedConnections = m.shedConnections
            proxyHeadersV1 = m.proxyHeadersV1
            proxyHeadersV2 = m.proxyHeadersV2
            proxyRefused = m.proxyRefused
        }
    }

    /// Prometheus text exposition format 0.0.4.
    public func prometheusText() -> String {
        var out = ""
        var requests: [String: UInt64] = [:]
        for l in loops {
            for (route, status, n) in l.requests {
                requests["route=\"\(route)\",status=\"\(status)\"", default: 0] += n
            }
        }
        out += "# HELP biqli_http_requests_total Requests answered, by route and status.\n"
        out += "# TYPE biqli_http_requests_total counter\n"
        for key in requests.keys.sorted() { out += "biqli_http_requests_total{\(key)} \(requests[key]!)\n" }

        out += "# HELP biqli_http_request_duration_seconds Time from a complete request to its response.\n"
        out += "# TYPE biqli_http_request_duration_seconds histogram\n"
        var cumulative: UInt64 = 0
        for (i, bound) in LoopMetrics.latencyBounds.enumerated() {
            cumulative += loops.reduce(0) { $0 + $1.latencyBuckets[i] }
            out += "biqli_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += loops.reduce(0) { $0 + $1.latencyBuckets[LoopMetrics.latencyBounds.count] }
        out += "biqli_http_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "biqli_http_request_duration_seconds_sum \(loops.reduce(0) { $0 + $1.latencySumSeconds })\n"
        out += "biqli_http_request_duration_seconds_count \(loops.reduce(0) { $0 + $1.latencyCount })\n"

        func gauge(_ name: String, _ help: String, _ type: String, _ value: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        gauge(
            "biqli_http_open_connections", "Connections open now.", "gauge",
            "\(loops.reduce(0) { $0 + $1.openConnections })")
        gauge(
            "biqli_http_accepted_connections_total", "Connections accepted.", "counter",
            "\(loops.reduce(0) { $0 + $1.acceptedConnections })")
        gauge(
            "biqli_http_accept_pauses_total", "Times accepting paused at the connection limit.", "counter",
            "\(loops.reduce(0) { $0 + $1.acceptPauses })")
        gauge(
            "biqli_http_shed_connections_total",
            "Waiting connections (idle keep-alive, or silent since accept) closed to make room at the connection limit.",
            "counter", "\(loops.reduce(0) { $0 + $1.shedConnections })")
        out += "# HELP biqli_tls_handshakes_total TLS handshakes, by result.\n"
        out += "# TYPE biqli_tls_handshakes_total counter\n"
        out += "biqli_tls_handshakes_total{result=\"full\"} \(loops.reduce(0) { $0 + $1.handshakesFull })\n"
        out += "biqli_tls_handshakes_total{result=\"resumed\"} \(loops.reduce(0) { $0 + $1.handshakesResumed })\n"
        out += "biqli_tls_handshakes_total{result=\"failed\"} \(loops.reduce(0) { $0 + $1.handshakesFailed })\n"
        var parse: [Int: UInt64] = [:]
        var timeouts: [String: UInt64] = [:]
        for l in loops {
            for (s, n) in l.parseErrors { parse[s, default: 0] += n }
            for (p, n) in l.timeouts { timeouts[p, default: 0] += n }
        }
        out += "# HELP biqli_http_rejected_requests_total Requests refused by the parser, by status.\n"
        out += "# TYPE biqli_http_rejected_requests_total counter\n"
        for s in parse.keys.sorted() { out += "biqli_http_rejected_requests_total{status=\"\(s)\"} \(parse[s]!)\n" }
        out += "# HELP biqli_http_timeouts_total Connections closed by a deadline, by phase.\n"
        out += "# TYPE biqli_http_timeouts_total counter\n"
        for p in timeouts.keys.sorted() { out += "biqli_http_timeouts_total{phase=\"\(p)\"} \(timeouts[p]!)\n" }
        out +=
            "# HELP biqli_proxy_protocol_headers_total PROXY protocol headers taken from trusted proxies, by version.\n"
        out += "# TYPE biqli_proxy_protocol_headers_total counter\n"
        out += "biqli_proxy_protocol_headers_total{version=\"1\"} \(loops.reduce(0) { $0 + $1.proxyHeadersV1 })\n"
        out += "biqli_proxy_protocol_headers_total{version=\"2\"} \(loops.reduce(0) { $0 + $1.proxyHeadersV2 })\n"
        out += "# HELP biqli_proxy_protocol_refused_total Connections closed at the PROXY protocol step, by reason.\n"
        out += "# TYPE biqli_proxy_protocol_refused_total counter\n"
        for reason in ProxyRefusal.allCases {
            let n = loops.reduce(0) { $0 + $1.proxyRefused[reason.rawValue] }
            out += "biqli_proxy_protocol_refused_total{reason=\"\(reason.label)\"} \(n)\n"
        }
        return out
    }
}
