import Core
import HTTP
import HTTPMessages
import Resolver

/// `POST /api/v1/track/open` (every method reaches the resolver, which answers 405
/// itself with the documented envelope) and the receipts' JWKS.
enum ResolverRoutes {
    static let jwksPath = "/.well-known/jwks.json"

    static func install(on router: RouterBuilder, services: EdgeServices) {
        router.add(nil, "/api/v1/track/open", name: "track_open") { request, context, _ in
            let input = ResolveInput(
                request: request,
                sourceAddress: services.clients.clientAddress(context, request.headers),
                now: services.nowMilliseconds, readerLoop: context.loopIndex)
            let responder = context.deferResponse()
            services.resolver.resolve(input) { response in responder.respond(response) }
            return .deferred
        }
        router.add([.get], jwksPath, name: "jwks") { _, context, _ in
            // From the store, not this process's memory: every edge sharing a database
            // publishes the same keys (one rotated by another edge included).
            let body = services.resolver.jwks(readerLoop: context.loopIndex, now: services.nowMilliseconds).body
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/jwk-set+json")
            // Short enough that a rotated-in key is seen well before the old one's receipts expire.
            headers.add("Cache-Control", "public, max-age=300")
            return .response(HTTPResponse(status: 200, headers: headers, body: body))
        }
    }
}
