import HTTP

/// `/healthz` and `/metrics`.
///
/// `/metrics` is served on the operator's metrics listener when one is configured;
/// without one, only to loopback peers on the main listeners, so that counters do
/// not leak to the internet by default.
enum OperationsRoutes {
    static func install(on router: Router, server: HTTPServer, configuration: EdgeConfiguration) {
        let healthy: HTTPResponse = {
            var r = HTTPResponse(status: 200, contentType: "application/json", body: #"{"status":"ok"}"#)
            r.headers.add("Cache-Control", "no-store")
            return r
        }()
        router.add([.get], "/healthz", name: "healthz") { _, _, _ in .response(healthy) }
        let dedicated = configuration.metricsAddress != nil
        router.add([.get], "/metrics", name: "metrics") { _, context, _ in
            let allowed =
                dedicated
                ? context.listener == .metrics : (isLoopback(context.peerAddress) && context.listener != .metrics)
            guard allowed else { return .response(.text(404, "not found\n")) }
            let responder = context.deferResponse()
            server.metrics { snapshot in
                var r = HTTPResponse(
                    status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                    body: snapshot.prometheusText())
                r.headers.add("Cache-Control", "no-store")
                responder.respond(r)
            }
            return .deferred
        }
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1"
    }
}
