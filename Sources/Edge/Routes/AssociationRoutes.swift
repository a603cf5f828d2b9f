import Association
import Core
import HTTP
import HTTPMessages
import Model
import Store

/// `/.well-known/apple-app-site-association` (and `/apple-app-site-association`) and
/// `/.well-known/assetlinks.json`: generated per host from the Mobile Apps attached to
/// the host's domain. Always 200 JSON or 404, on HTTP and HTTPS alike, never a
/// redirect, identical for every client; `ETag` and `If-None-Match` for revalidation.
enum AssociationRoutes {
    /// Documents rendered for a host, kept while its attached apps stay equal and, when
    /// the AASA lists link keys (several iOS apps), while its links do (`linksVersion`).
    struct Cached {
        var apps: [MobileApp]
        /// The reader's `linksVersion(host:)` when rendered; nil when the links were not read.
        var linksVersion: UInt64?
        var aasa: AssociationDocument?
        var assetLinks: AssociationDocument?
    }

    static func install(on router: RouterBuilder, services: EdgeServices) {
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
        _ requestHost: String, _ context: RequestContext, _ services: EdgeServices, _ caches: PerLoop<[String: Cached]>,
        _ pick: (Cached) -> AssociationDocument?
    ) -> AssociationDocument? {
        let reader = services.reader(context)
        // An alternate hostname answers its domain's documents (decision 0033 §4).
        guard let served = try? reader.domain(servedAt: requestHost) else { return nil }
        let host = served.hostname
        guard let apps = try? reader.apps(attachedTo: host) else { return nil }
        // Taken before the links are read: a change committed in between then only costs
        // one more rendering, never a stale document kept.
        let byKey = AssociationRenderer.claimsLinksByKey(apps: apps)
        let version = byKey ? reader.linksVersion(host: host) : nil
        return caches.with(context.loopIndex) { cache in
            if let hit = cache[host], hit.apps == apps, !byKey || (version != nil && hit.linksVersion == version) {
                return pick(hit)
            }
            var links: [LinkClaim] = []
            if byKey {
                guard let read = try? reader.linkClaims(domain: host) else {
                    // The store failed: the last document of these apps beats a 404 that
                    // Apple's CDN would keep for a day.
                    if let hit = cache[host], hit.apps == apps { return pick(hit) }
                    return nil
                }
                links = read
            }
            let entry = Cached(
                apps: apps, linksVersion: version,
                aasa: AssociationRenderer.appleAppSiteAssociation(apps: apps, links: links),
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
