/// One route's path pattern (`/api/v1/links/:id`, `/assets/*path`), split into segments
/// once, when the route is added, and matched against a request path's segments.
struct RoutePattern: Sendable {
    enum Segment: Equatable, Sendable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    let segments: [Segment]

    init(_ pattern: String) {
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
        self.segments = segments
    }

    /// How many path segments the pattern can match: a `*rest` takes any number of
    /// segments (none included) after the ones before it; no segments matches only `/`
    /// (one empty segment).
    var segmentCounts: ClosedRange<Int> {
        if let rest = segments.firstIndex(where: { if case .rest = $0 { true } else { false } }) {
            return rest...Int.max
        }
        return max(segments.count, 1)...max(segments.count, 1)
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

    /// The parameters the pattern captures from a path's segments, or nil when it does not match.
    func match(_ parts: ArraySlice<Substring>) -> RouteParameters? {
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
                // Lengths first: a catch-all route's value is compared with every literal route
                // before it, and most differ in length (a byte-wise `elementsEqual` costs ~180
                // instructions each).
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

    /// The parameters `pattern` captures from `path`, or nil (for tests of the matcher).
    static func match(_ pattern: String, _ path: String) -> RouteParameters? {
        let compiled = RoutePattern(pattern)
        let parts = segments(Substring(path))
        guard compiled.segmentCounts.contains(parts.count) else { return nil }
        return compiled.match(parts[...])
    }
}
