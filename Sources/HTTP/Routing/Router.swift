import HTTPTypes

/// A small path router: literal segments, `:name` parameters (one segment each)
/// and a trailing `*` that takes the rest. Routes are tried in the order added;
/// the first whose pattern matches the path wins, whatever the method. If that
/// route does not take the method, the answer is 405 with `Allow`, unless the
/// route asked to see every method (`anyMethod`), as the resolver does for its own
/// 405 envelope.
public final class Router: HTTPHandler, @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest, inout RequestContext, RouteParameters) -> HTTPHandlerResult

    private struct Route {
        var name: String
        var methods: [HTTPMethod]?
        var segments: [Segment]
        var handler: Handler
    }

    private enum Segment: Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    private var routes: [Route] = []
    /// How many path segments each route can match, beside `routes` so that passing
    /// over a route that cannot match touches no reference-counted value: a visit's
    /// `/<key>` is the last route, and copying every route before it was ~2,000
    /// instructions per visit.
    private var segmentCounts: [ClosedRange<Int>] = []
    /// Answers requests that match no route (default: plain 404).
    public var notFound: Handler = { _, _, _ in .response(.text(404, "not found\n")) }
    /// Builds the 405 answer (default: plain text with `Allow`).
    public var methodNotAllowed: @Sendable (HTTPRequest, [HTTPMethod]) -> HTTPResponse = { _, allowed in
        var r = HTTPResponse.text(405, "method not allowed\n")
        r.headers.add("Allow", allowed.map(\.name).joined(separator: ", "))
        return r
    }

    public init() {}

    /// Adds a route. `methods` nil means every method reaches the handler. GET routes
    /// answer HEAD too (the connection drops the body).
    public func add(_ methods: [HTTPMethod]?, _ pattern: String, name: String, _ handler: @escaping Handler) {
        var segments: [Segment] = []
        for part in pattern.split(separator: "/", omittingEmptySubsequences: true) {
            if part.hasPrefix(":") {
                segments.append(.parameter(String(part.dropFirst())))
            } else if part.hasPrefix("*") {
                segments.append(.rest(String(part.dropFirst())))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        var methods = methods
        if let m = methods, m.contains(.get), !m.contains(.head) { methods = m + [.head] }
        routes.append(Route(name: name, methods: methods, segments: segments, handler: handler))
        segmentCounts.append(Router.segmentCounts(segments))
    }

    /// What `match` can accept: a `*rest` takes any number of segments (none included)
    /// after the ones before it; no segments matches only `/` (one empty segment).
    private static func segmentCounts(_ segments: [Segment]) -> ClosedRange<Int> {
        if let rest = segments.firstIndex(where: { if case .rest = $0 { true } else { false } }) {
            return rest...Int.max
        }
        return max(segments.count, 1)...max(segments.count, 1)
    }

    public func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        // The parser gives origin-form targets; only OPTIONS' `*` has no leading slash.
        let path = request.path
        let parts = Router.segments(path.utf8.first == UInt8(ascii: "/") ? path : "/")
        for index in routes.indices where segmentCounts[index].contains(parts.count) {
            guard let params = match(routes[index].segments, parts[...]) else { continue }
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

    /// The segments after the leading `/` (`/a/b` -> `a`, `b`; `/` -> one empty segment),
    /// split on bytes rather than Characters.
    static func segments(_ path: Substring) -> [Substring] {
        var out: [Substring] = []
        out.reserveCapacity(4)
        let u = path.utf8
        var start = u.index(after: u.startIndex)
        var i = start
        while i < u.endIndex {
            if u[i] == UInt8(ascii: "/") {
                out.append(path[start..<i])
                start = u.index(after: i)
            }
            i = u.index(after: i)
        }
        out.append(path[start..<u.endIndex])
        return out
    }

    /// The parameters `pattern` captures from `path`, or nil (for tests of the matcher).
    func routeMatch(pattern: String, path: String) -> RouteParameters? {
        let probe = Router()
        probe.add(nil, pattern, name: "probe") { _, _, _ in .deferred }
        let parts = Router.segments(Substring(path))
        guard probe.segmentCounts[0].contains(parts.count) else { return nil }
        return probe.match(probe.routes[0].segments, parts[...])
    }

    private func match(_ segments: [Segment], _ parts: ArraySlice<Substring>) -> RouteParameters? {
        var params = RouteParameters()
        var i = parts.startIndex
        // "/" splits into one empty part: a route without segments matches only it.
        if segments.isEmpty { return parts.count == 1 && parts.first!.isEmpty ? params : nil }
        for (n, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                params.values.append((name, parts[i...].joined(separator: "/")))
                return params
            case .literal(let text):
                // Lengths first: a visit's key is compared with every literal route before it, and
                // most differ in length (a byte-wise `elementsEqual` costs ~180 instructions each).
                guard i < parts.endIndex, parts[i].utf8.count == text.utf8.count, parts[i].utf8.elementsEqual(text.utf8)
                else { return nil }
            case .parameter(let name):
                guard i < parts.endIndex, !parts[i].isEmpty else { return nil }
                params.values.append((name, String(parts[i])))
            }
            i += 1
            if n == segments.count - 1 { return i == parts.endIndex ? params : nil }
        }
        return nil
    }
}

/// Values captured by `:name` and `*name` segments, still percent-encoded.
public struct RouteParameters: Sendable {
    public var values: [(String, String)] = []
    public init() {}
    public subscript(_ name: String) -> String? {
        for (k, v) in values where k == name { return v }
        return nil
    }
}
