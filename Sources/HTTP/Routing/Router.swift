import HTTPMessages

/// The route table the server answers with, built by `RouterBuilder` and never changed
/// after: every loop reads it at once without a lock.
///
/// A request goes to the most specific route whose pattern matches its path (literal
/// segments before parameters, parameters before a rest: `RouteTree`), whatever the order
/// the routes were added in. If that pattern's routes do not take the method, the answer
/// is 405 with `Allow` (from the route's group when it answers for itself, else the
/// table's), unless one of them takes every method and answers a wrong one itself. A path
/// no route matches gets the 404 of the innermost group that answers for itself, or the
/// table's.
public final class Router: HTTPHandler, Sendable {
    public typealias Handler = @Sendable (HTTPRequest, inout RequestContext, RouteParameters) -> HTTPHandlerResult
    /// Answers a method a route does not take, given the methods its pattern takes.
    public typealias MethodNotAllowed = @Sendable (HTTPRequest, inout RequestContext, [HTTPMethod]) -> HTTPHandlerResult

    private let tree: RouteTree
    // One entry per distinct pattern ("endpoint"), side by side in plain arrays.
    private let patterns: [RoutePattern]
    private let captures: [Bool]
    private let routeRanges: [Range<Int>]
    private let allowed: [[HTTPMethod]]
    private let refusals: [MethodNotAllowed]
    private let refusalNames: [String]
    // One entry per route, grouped by endpoint.
    private let routeMethods: [[HTTPMethod]?]
    private let routeNames: [String]
    private let routeHandlers: [Handler]
    private let segmenter: RouterBuilder.Segmenter?
    private let unsegmentable: Handler
    private let unsegmentableName: String
    /// Every route as added, for tests and documents.
    public let routes: [RouteDescription]

    init(
        entries: [RouterBuilder.Entry], methodNotAllowed: @escaping MethodNotAllowed,
        segmenter: RouterBuilder.Segmenter?, unsegmentable: @escaping Handler, unsegmentableName: String
    ) {
        var order: [String] = []
        var byShape: [String: [RouterBuilder.Entry]] = [:]
        for entry in entries {
            let shape = entry.pattern.shape
            if byShape[shape] == nil { order.append(shape) }
            byShape[shape, default: []].append(entry)
        }
        var tree = RouteTree()
        var patterns: [RoutePattern] = []
        var routeRanges: [Range<Int>] = []
        var allowed: [[HTTPMethod]] = []
        var refusals: [MethodNotAllowed] = []
        var refusalNames: [String] = []
        var routeMethods: [[HTTPMethod]?] = []
        var routeNames: [String] = []
        var routeHandlers: [Handler] = []
        for shape in order {
            let group = byShape[shape]!
            let first = group[0]
            tree.insert(first.pattern, endpoint: patterns.count)
            patterns.append(first.pattern)
            routeRanges.append(routeHandlers.count..<(routeHandlers.count + group.count))
            var methods = group.flatMap { $0.methods ?? [] }
            if methods.contains(.get) { methods.append(.head) }
            allowed.append(methods)
            refusals.append(first.methodNotAllowed ?? methodNotAllowed)
            refusalNames.append(first.answerName ?? first.name)
            for entry in group {
                routeMethods.append(entry.methods)
                routeNames.append(entry.name)
                routeHandlers.append(entry.handler)
            }
        }
        self.tree = tree
        self.patterns = patterns
        self.captures = patterns.map(\.captures)
        self.routeRanges = routeRanges
        self.allowed = allowed
        self.refusals = refusals
        self.refusalNames = refusalNames
        self.routeMethods = routeMethods
        self.routeNames = routeNames
        self.routeHandlers = routeHandlers
        self.segmenter = segmenter
        self.unsegmentable = unsegmentable
        self.unsegmentableName = unsegmentableName
        self.routes = entries.map {
            RouteDescription(methods: $0.methods, pattern: $0.pattern.text, name: $0.name, isFallback: $0.isFallback)
        }
    }

    public func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        let path = request.path
        let parts: [Substring]
        if let segmenter {
            guard let split = segmenter(path) else {
                context.routeName = unsegmentableName
                return unsegmentable(request, &context, RouteParameters())
            }
            parts = split
        } else {
            // The parser gives origin-form targets; only OPTIONS' `*` has no leading slash.
            parts = RoutePattern.segments(path.utf8.first == UInt8(ascii: "/") ? path : "/")
        }
        // The table's own 404 is a rest at the root: every path finds an endpoint.
        let endpoint = tree.find(parts)
        let parameters = captures[endpoint] ? patterns[endpoint].match(parts) ?? RouteParameters() : RouteParameters()
        let method = request.method
        for index in routeRanges[endpoint] {
            if let methods = routeMethods[index],
                !methods.contains(method) && !(method == .head && methods.contains(.get))
            {
                continue
            }
            context.routeName = routeNames[index]
            return routeHandlers[index](request, &context, parameters)
        }
        context.routeName = refusalNames[endpoint]
        return refusals[endpoint](request, &context, allowed[endpoint])
    }

    /// `Allow`'s value: the methods in the order their routes were added, HEAD after them
    /// when GET is one (`GET, PATCH, DELETE, HEAD`).
    public static func allowHeader(_ allowed: [HTTPMethod]) -> String {
        allowed.map(\.name).joined(separator: ", ")
    }
}
