import HTTPMessages

/// The route table while the application puts it together at start-up; `build()` freezes
/// it into the `Router` the server answers with. Routes go in through groups (`root`,
/// `group`): the order in which they are added decides nothing, since the most specific
/// route that matches a path answers it, and two routes that could take the same request
/// with neither more specific are refused (`validate`). Not shared between threads: only
/// what it builds is.
public final class RouterBuilder {
    /// Splits a request's path into the segments that routes match; nil refuses the path
    /// (`unsegmentable` answers). Default: on `/`, as sent (`RoutePattern.segments`).
    public typealias Segmenter = @Sendable (Substring) -> [Substring]?

    struct Entry {
        var methods: [HTTPMethod]?
        var pattern: RoutePattern
        var name: String
        var handler: Router.Handler
        /// Nil: the table's.
        var methodNotAllowed: Router.MethodNotAllowed?
        var answerName: String?
        var isFallback: Bool
    }

    private var entries: [Entry] = []
    /// Answers requests that match no route (default: plain 404), named `notFoundName`.
    public var notFound: Router.Handler = { _, _, _ in .response(.text(404, "not found\n")) }
    public var notFoundName = "not_found"
    /// Builds the 405 answer (default: plain text with `Allow`).
    public var methodNotAllowed: Router.MethodNotAllowed = { _, _, allowed in
        var r = HTTPResponse.text(405, "method not allowed\n")
        r.headers.add("Allow", Router.allowHeader(allowed))
        return .response(r)
    }
    public var segmenter: Segmenter?
    /// Answers a path `segmenter` refuses (default: plain 400), named `unsegmentableName`.
    public var unsegmentable: Router.Handler = { _, _, _ in .response(.text(400, "bad request\n")) }
    public var unsegmentableName = "bad_path"

    public init() {}

    /// The table's root: routes added here have no prefix and no middleware.
    public var root: RouteGroup { RouteGroup(builder: self) }

    /// `root.group(path, middleware:)`.
    public func group(_ path: String = "", middleware: [any RouteMiddleware] = []) -> RouteGroup {
        root.group(path, middleware: middleware)
    }

    /// `root.add(...)`: a route with no prefix and no middleware.
    public func add(_ methods: [HTTPMethod]?, _ pattern: String, name: String, _ handler: @escaping Router.Handler) {
        root.add(methods, pattern, name: name, handler)
    }

    func append(_ entry: Entry) { entries.append(entry) }

    /// Every route, the table's own 404 last.
    private var allEntries: [Entry] {
        entries + [
            Entry(
                methods: nil, pattern: RoutePattern("/*"), name: notFoundName, handler: notFound,
                methodNotAllowed: nil, answerName: notFoundName, isFallback: true)
        ]
    }

    /// The routes added so far, each group's prefix included.
    public var routes: [RouteDescription] {
        allEntries.map {
            RouteDescription(methods: $0.methods, pattern: $0.pattern.text, name: $0.name, isFallback: $0.isFallback)
        }
    }

    /// Refuses a table in which a request could be taken by two routes neither of which is
    /// strictly more specific (Hummingbird's `Router.validate`): two patterns that can
    /// match one path must be nested, and the routes of one pattern must take different
    /// methods (a GET route takes HEAD; a route of every method takes them all). A rest
    /// that takes no segment meets no other pattern (`RoutePattern.overlaps`).
    public func validate() throws(RouteConflict) {
        let all = allEntries
        for i in all.indices {
            for j in all.indices where j > i {
                let (a, b) = (all[i].pattern, all[j].pattern)
                guard a.overlaps(b) else { continue }
                if a.shape == b.shape {
                    if a.text == b.text && !Self.methodsOverlap(all[i].methods, all[j].methods) { continue }
                } else if a.isStrictlyMoreSpecific(than: b) || b.isStrictlyMoreSpecific(than: a) {
                    continue
                }
                throw RouteConflict(first: Self.label(all[i]), second: Self.label(all[j]), path: a.commonPath(b))
            }
        }
    }

    /// The routes added so far, frozen; adding more later changes only later builds. A
    /// table `validate` refuses stops the process here: unit tests build every table.
    public func build() -> Router {
        do {
            try validate()
        } catch {
            preconditionFailure("the route table is ambiguous: \(error)")
        }
        return Router(
            entries: allEntries, methodNotAllowed: methodNotAllowed, segmenter: segmenter,
            unsegmentable: unsegmentable, unsegmentableName: unsegmentableName)
    }

    private static func methodsOverlap(_ a: [HTTPMethod]?, _ b: [HTTPMethod]?) -> Bool {
        guard let a, let b else { return true }
        func takes(_ methods: [HTTPMethod], _ m: HTTPMethod) -> Bool {
            methods.contains(m) || (m == .head && methods.contains(.get))
        }
        return a.contains { takes(b, $0) || ($0 == .get && takes(b, .head)) } || b.contains { takes(a, $0) }
    }

    private static func label(_ entry: Entry) -> String {
        (entry.methods.map { $0.map(\.name).joined(separator: ",") } ?? "*") + " " + entry.pattern.text
    }
}
