import Association
import Core
import HTTP
import Store

/// `/.well-known/apple-app-site-association` (and `/apple-app-site-association`) and
/// `/.well-known/assetlinks.json`: generated per host from the Mobile Apps attached to
/// the host's domain. Always 200 JSON or 404, on HTTP and HTTPS alike, never a
/// redirect, identical for every client; `ETag` and `If-None-Match` for revalidation.
enum AssociationRoutes {
    /// Documents rendered for a host, kept while its attached apps stay equal.
    struct Cached {
        var apps: [MobileApp]
        var aasa: AssociationDocument?
        var assetLinks: AssociationDocument?
    }

    static func install(on router: Router, services: EdgeServices) {
        let caches = PerLoop<[String: Cached]>(count: services.configuration.loops) { [:] }
        let aasa: Router.Handler = { request, context, _ in
            .response(answer(request, context, services, caches) { $0.aasa })
        }
        router.add([.get], "/.well-known/apple-app-site-association", name: "aasa", aasa)
        router.add([.get], "/apple-app-site-association", name: "aasa", aasa)
        router.add([.get], "/.well-known/assetlinks.json", name: "assetlinks") { request, context, _ in
            .response(answer(request, context, services, caches) { $0.assetLinks })
        }
    }

    private static func answer(
        _ request: HTTPRequest, _ context: RequestContext, _ services: EdgeServices,
        _ caches: PerLoop<[String: Cached]>, _ pick: (Cached) -> AssociationDocument?
    ) -> HTTPResponse {
        guard let host = request.host, let document = document(host, context, services, caches, pick) else {
            return notFound()
        }
        var headers = HTTPHeaders()
        for (name, value) in document.headers { headers.add(name, value) }
        if document.matches(ifNoneMatch: request.headers.values("if-none-match")) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: headers, body: document.body)
    }

    private static func document(
        _ host: String, _ context: RequestContext, _ services: EdgeServices, _ caches: PerLoop<[String: Cached]>,
        _ pick: (Cached) -> AssociationDocument?
    ) -> AssociationDocument? {
        let reader = services.reader(context)
        guard (try? reader.domain(host)) != nil, let apps = try? reader.apps(attachedTo: host) else { return nil }
        return caches.with(context.loopIndex) { cache in
            if let hit = cache[host], hit.apps == apps { return pick(hit) }
            let entry = Cached(
                apps: apps, aasa: AssociationRenderer.appleAppSiteAssociation(apps: apps),
                assetLinks: AssociationRenderer.assetLinks(apps: apps))
            if cache.count > 10_000 { cache.removeAll() }
            cache[host] = entry
            return pick(entry)
        }
    }

    private static func notFound() -> HTTPResponse {
        var r = HTTPResponse.json(404, ["error": ["code": "resource_not_found", "message": "no association document"]])
        r.headers.set("Cache-Control", "public, max-age=300")
        return r
    }
}
