import HTTP
import HTTPMessages
import Model
import Store
import Templates

/// The routes of a link domain: `/` (root URL or page), `/m/handoff` (the copied
/// handoff URL opened in a browser), `/<key>` (a short-link visit), and everything
/// else (the domain's not-found URL or the 404 page).
///
/// Plain-HTTP requests to these get a 308 to HTTPS unless `BIQLI_EDGE_HTTPS_REDIRECT=off`
/// (or a trusted proxy says the original request was HTTPS). A host that is not a
/// configured domain gets its 404 over plain HTTP too: redirecting it would only send
/// the visitor to a certificate this edge may not have.
enum VisitRoutes {
    static func install(on router: RouterBuilder, services: EdgeServices, flow: VisitFlow) {

        router.add([.get], "/", name: "root") { request, context, _ in
            guard let domain = domain(request, context, services) else {
                return .response(flow.notFound(nil, request))
            }
            if let redirect = httpsRedirect(request, context, services) { return .response(redirect) }
            if let url = domain.rootUrl { return .response(VisitFlow.redirect(url)) }
            return .response(
                services.pages.domainRoot(acceptLanguage: request.headers["accept-language"]))
        }

        router.add([.get], "/m/handoff", name: "handoff_landing") { request, context, _ in
            guard let domain = domain(request, context, services) else {
                return .response(flow.notFound(nil, request))
            }
            if let redirect = httpsRedirect(request, context, services) { return .response(redirect) }
            // The app to point at: the only iOS app attached to this domain, if there is one.
            let iosApps = ((try? services.reader(context).apps(attachedTo: domain.hostname)) ?? []).filter {
                $0.ios != nil && $0.enabled
            }
            let model = iosApps.count == 1 ? HandoffLandingModel(app: iosApps[0]) : HandoffLandingModel()
            return .response(services.pages.handoffLanding(model, acceptLanguage: request.headers["accept-language"]))
        }

        router.add([.get], "/:key", name: "visit") { request, context, params in
            guard let domain = domain(request, context, services), let key = params["key"] else {
                return .response(flow.notFound(nil, request))
            }
            if let redirect = httpsRedirect(request, context, services) { return .response(redirect) }
            return flow.visit(request, &context, domain: domain, key: Substring(key))
        }

        router.notFound = { request, context, _ in
            context.routeName = "not_found"
            return .response(flow.notFound(domain(request, context, services), request))
        }
    }

    static func domain(_ request: HTTPRequest, _ context: RequestContext, _ services: EdgeServices) -> Domain? {
        guard let host = request.host else { return nil }
        // A domain's alternate hostname serves the domain (decision 0033 §4).
        return (try? services.reader(context).domain(servedAt: host)) ?? nil
    }

    /// 308 to the same URL over HTTPS, for visits that arrived over plain HTTP.
    static func httpsRedirect(_ request: HTTPRequest, _ context: RequestContext, _ services: EdgeServices)
        -> HTTPResponse?
    {
        guard services.configuration.httpsRedirect,
            !services.clients.isHTTPS(peer: context.peerAddress, listener: context.listener, headers: request.headers),
            let host = request.host
        else { return nil }
        let port = services.server.boundAddresses.first { $0.0 == .https }?.1.port
        guard let port else { return nil }  // no HTTPS listener: nothing to redirect to
        // Only configured domains get here, and they are DNS names (never IP literals).
        let authority = port == 443 ? host : host + ":" + String(port)
        return HTTPResponse.redirect(
            308, to: "https://" + authority + request.target, extra: VisitFlow.referrerPolicy)
    }
}
