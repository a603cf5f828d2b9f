import HTTPTypes

/// The route table while the application puts it together at start-up, in matching
/// order; `build()` freezes it into the `Router` the server answers with. Not shared
/// between threads: only what it builds is.
public final class RouterBuilder {
    private var routes: [Router.Route] = []
    /// Answers requests that match no route (default: plain 404).
    public var notFound: Router.Handler = { _, _, _ in .response(.text(404, "not found\n")) }
    /// Builds the 405 answer (default: plain text with `Allow`).
    public var methodNotAllowed: Router.MethodNotAllowed = { _, allowed in
        var r = HTTPResponse.text(405, "method not allowed\n")
        r.headers.add("Allow", allowed.map(\.name).joined(separator: ", "))
        return r
    }

    public init() {}

    /// Adds a route after those added before. `methods` nil means every method reaches
    /// the handler. GET routes answer HEAD too (the connection drops the body).
    public func add(_ methods: [HTTPMethod]?, _ pattern: String, name: String, _ handler: @escaping Router.Handler) {
        var methods = methods
        if let m = methods, m.contains(.get), !m.contains(.head) { methods = m + [.head] }
        routes.append(Router.Route(name: name, methods: methods, pattern: RoutePattern(pattern), handler: handler))
    }

    /// The routes added so far, frozen; adding more later changes only later builds.
    public func build() -> Router {
        Router(routes: routes, notFound: notFound, methodNotAllowed: methodNotAllowed)
    }
}
