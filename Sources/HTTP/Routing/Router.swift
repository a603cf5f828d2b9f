import HTTPTypes

/// The route table the server answers with: literal segments, `:name` parameters
/// (one segment each) and a trailing `*` that takes the rest. Routes are tried in the
/// order they were added; the first whose pattern matches the path wins, whatever the
/// method. If that route does not take the method, the answer is 405 with `Allow`,
/// unless the route asked to see every method (`nil` methods), for an application
/// that answers 405 in its own format.
///
/// Built once at start-up by `RouterBuilder` and never changed after: every loop
/// reads it at once without a lock.
public final class Router: HTTPHandler, Sendable {
    public typealias Handler = @Sendable (HTTPRequest, inout RequestContext, RouteParameters) -> HTTPHandlerResult
    /// Builds the 405 answer from the request and the methods its route takes.
    public typealias MethodNotAllowed = @Sendable (HTTPRequest, [HTTPMethod]) -> HTTPResponse

    struct Route: Sendable {
        var name: String
        /// nil: every method reaches the handler.
        var methods: [HTTPMethod]?
        var pattern: RoutePattern
        var handler: Handler
    }

    private let routes: [Route]
    /// How many path segments each route can match, beside `routes` so that passing
    /// over a route that cannot match touches no reference-counted value: a catch-all
    /// `/:name` last in the table is reached past every other route, and copying each
    /// one on the way cost ~2,000 instructions per request.
    private let segmentCounts: [ClosedRange<Int>]
    private let notFound: Handler
    private let methodNotAllowed: MethodNotAllowed

    init(routes: [Route], notFound: @escaping Handler, methodNotAllowed: @escaping MethodNotAllowed) {
        self.routes = routes
        self.segmentCounts = routes.map(\.pattern.segmentCounts)
        self.notFound = notFound
        self.methodNotAllowed = methodNotAllowed
    }

    public func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        // The parser gives origin-form targets; only OPTIONS' `*` has no leading slash.
        let path = request.path
        let parts = RoutePattern.segments(path.utf8.first == UInt8(ascii: "/") ? path : "/")
        for index in routes.indices where segmentCounts[index].contains(parts.count) {
            guard let params = routes[index].pattern.match(parts[...]) else { continue }
            let route = routes[index]
            context.routeName = route.name
            if let methods = route.methods, !methods.contains(request.method) {
                return .response(methodNotAllowed(request, methods))
            }
            return route.handler(request, &context, params)
        }
        context.routeName = "not_found"
        return notFound(request, &context, RouteParameters())
    }
}
