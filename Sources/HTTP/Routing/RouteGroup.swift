import HTTPMessages

/// Routes under one path prefix that share middleware (Hummingbird's `RouterGroup`):
/// `router.group("/api/v1", middleware: [requestId])` adds its routes below `/api/v1`,
/// each inside the group's middleware, and `group(...)` makes a group inside it. A value:
/// adding a route goes to the table that made the group; a group made from this one
/// keeps what this one has and adds to it.
///
/// A group may answer for itself (`answering`): a path under its prefix that none of its
/// routes takes, and a method a route of it does not take, get the group's answers (the
/// workspace API's JSON envelope) rather than the table's, inside its middleware.
public struct RouteGroup {
    let builder: RouterBuilder
    /// `""` for the table's root, else `/`-prefixed (`/api/v1`).
    public let prefix: String
    let middleware: [any RouteMiddleware]
    let decodesParameters: Bool
    /// The 405 answer of the routes added through this group, inside the middleware of the
    /// group that set it (nil: the table's).
    let methodNotAllowed: Router.MethodNotAllowed?
    /// The route name of those answers (the access log's and metrics' label; nil: the
    /// route's own name for a 405, the table's for a 404).
    let answerName: String?

    init(builder: RouterBuilder) {
        self.builder = builder
        self.prefix = ""
        self.middleware = []
        self.decodesParameters = false
        self.methodNotAllowed = nil
        self.answerName = nil
    }

    private init(
        _ group: RouteGroup, prefix: String, middleware: [any RouteMiddleware], decodesParameters: Bool,
        methodNotAllowed: Router.MethodNotAllowed?, answerName: String?
    ) {
        self.builder = group.builder
        self.prefix = prefix
        self.middleware = middleware
        self.decodesParameters = decodesParameters
        self.methodNotAllowed = methodNotAllowed
        self.answerName = answerName
    }

    /// A group below `path` (`""`: the same prefix) whose routes run inside this group's
    /// middleware and then `middleware`.
    public func group(_ path: String = "", middleware: [any RouteMiddleware] = []) -> RouteGroup {
        RouteGroup(
            self, prefix: Self.join(prefix, path), middleware: self.middleware + middleware,
            decodesParameters: decodesParameters, methodNotAllowed: methodNotAllowed, answerName: answerName)
    }

    /// This group, its routes' parameters percent-decoded: a segment that is not
    /// percent-encoded UTF-8 matches none of them (the path then gets the group's 404).
    public func decodingParameters() -> RouteGroup {
        RouteGroup(
            self, prefix: prefix, middleware: middleware, decodesParameters: true,
            methodNotAllowed: methodNotAllowed, answerName: answerName)
    }

    /// Adds a route at `path` below the prefix. `methods` nil: every method reaches the
    /// handler (which then answers a wrong one itself); GET routes answer HEAD too (the
    /// connection drops the body).
    public func add(_ methods: [HTTPMethod]?, _ path: String, name: String, _ handler: @escaping Router.Handler) {
        builder.append(
            RouterBuilder.Entry(
                methods: methods, pattern: RoutePattern(Self.join(prefix, path), decodesParameters: decodesParameters),
                name: name, handler: middleware.wrapping(handler), methodNotAllowed: methodNotAllowed,
                answerName: answerName, isFallback: false))
    }

    /// This group answering for itself, inside its middleware: `notFound` for a path under
    /// its prefix that no route takes (added now, as the least specific route there), and
    /// `methodNotAllowed` for the routes added through the group returned (and the groups
    /// made from it) when a request's method is not theirs. `name` labels both answers.
    public func answering(
        name: String, notFound: @escaping Router.Handler, methodNotAllowed: @escaping Router.MethodNotAllowed
    ) -> RouteGroup {
        let middleware = self.middleware
        builder.append(
            RouterBuilder.Entry(
                methods: nil, pattern: RoutePattern(Self.join(prefix, "/*")), name: name,
                handler: middleware.wrapping(notFound), methodNotAllowed: nil, answerName: name, isFallback: true))
        let refuse: Router.MethodNotAllowed = { request, context, allowed in
            let answer = middleware.wrapping { request, context, _ in methodNotAllowed(request, &context, allowed) }
            return answer(request, &context, RouteParameters())
        }
        return RouteGroup(
            self, prefix: prefix, middleware: middleware, decodesParameters: decodesParameters,
            methodNotAllowed: refuse, answerName: name)
    }

    /// `/api/v1` + `/links` -> `/api/v1/links`; `` + `/` -> `/`; `/console` + `/` -> `/console/`.
    static func join(_ prefix: String, _ path: String) -> String {
        precondition(path.isEmpty || path.hasPrefix("/"), "a route path starts with /: \(path)")
        let joined = prefix + path
        return joined.isEmpty ? "/" : joined
    }
}
