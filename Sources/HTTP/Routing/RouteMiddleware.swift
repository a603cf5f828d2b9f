import HTTPMessages

/// Work that a route group puts around each of its routes (Hummingbird's
/// `RouterMiddleware`): a request id, authentication and scopes, a rate limit. It answers
/// itself (a refusal) or calls `next`, the rest of the chain and then the route. A group's
/// middleware also runs around the group's own answers for a path it has no route for
/// (404) and for a method its route does not take (405), so that those carry what the
/// middleware gives a request (its id).
public protocol RouteMiddleware: Sendable {
    func respond(
        to request: HTTPRequest, _ context: inout RequestContext, _ parameters: RouteParameters,
        next: Router.Handler
    ) -> HTTPHandlerResult
}

extension Array where Element == any RouteMiddleware {
    /// `handler` inside these middleware, the first outermost.
    func wrapping(_ handler: @escaping Router.Handler) -> Router.Handler {
        var wrapped = handler
        for middleware in reversed() {
            let next = wrapped
            wrapped = { request, context, parameters in
                middleware.respond(to: request, &context, parameters, next: next)
            }
        }
        return wrapped
    }
}
