/// One route's path pattern (`/api/v1/links/:id`, `/api/v1/links/{id}`, `/assets/*path`),
/// split into segments once, when the route is added: literals, parameters (one non-empty
/// segment each) and a trailing rest (`*name`: any number of segments, none included).
/// `/` is one empty literal segment, as the path `/` is one empty segment; a pattern that
/// ends in `/` (`/console/`) ends in an empty literal.
///
/// Besides matching, a pattern answers the questions the router's conflict check asks
/// of two patterns: can one path match both, and does every path one matches match the
/// other (then it is the more specific one, and answers).
struct RoutePattern: Sendable, Equatable {
    enum Segment: Equatable, Sendable {
        case literal(String)
        /// `decoded`: the segment must be percent-encoded UTF-8, and is handed decoded.
        case parameter(String, decoded: Bool)
        case rest(String)
    }

    /// As written when added.
    let text: String
    let segments: [Segment]

    init(_ pattern: String, decodesParameters: Bool = false) {
        precondition(pattern.hasPrefix("/"), "a route pattern starts with /: \(pattern)")
        var segments: [Segment] = []
        for part in pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if part.hasPrefix(":") {
                segments.append(.parameter(String(part.dropFirst()), decoded: decodesParameters))
            } else if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                segments.append(.parameter(String(part.dropFirst().dropLast()), decoded: decodesParameters))
            } else if part.hasPrefix("*") {
                segments.append(.rest(String(part.dropFirst())))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        if let rest = segments.firstIndex(where: \.isRest) {
            precondition(rest == segments.count - 1, "a rest segment ends its pattern: \(pattern)")
        }
        self.text = pattern
        self.segments = segments
    }

    /// The pattern's shape without its parameters' names: two patterns with the same
    /// shape match the same paths.
    var shape: String {
        segments.map { segment -> String in
            switch segment {
            case .literal(let text): return "=" + text
            case .parameter(_, let decoded): return decoded ? ":%" : ":"
            case .rest: return "*"
            }
        }.joined(separator: "/")
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
    func match(_ parts: [Substring]) -> RouteParameters? {
        var params = RouteParameters()
        for (i, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                if !name.isEmpty { params.values.append((name, parts[i...].joined(separator: "/"))) }
                return params
            case .literal(let text):
                guard i < parts.count, parts[i].utf8.elementsEqual(text.utf8) else { return nil }
            case .parameter(let name, let decoded):
                guard i < parts.count, !parts[i].isEmpty else { return nil }
                if decoded {
                    guard let value = PercentDecoding.segment(parts[i]) else { return nil }
                    params.values.append((name, value))
                } else {
                    params.values.append((name, String(parts[i])))
                }
            }
        }
        return parts.count == segments.count ? params : nil
    }

    /// The parameters `pattern` captures from `path`, or nil (for tests of the matcher).
    static func match(_ pattern: String, _ path: String) -> RouteParameters? {
        RoutePattern(pattern).match(segments(Substring(path)))
    }

    // MARK: Two patterns

    /// Whether a match captures anything (a parameter, a named rest).
    var captures: Bool {
        segments.contains { segment in
            switch segment {
            case .literal: return false
            case .parameter: return true
            case .rest(let name): return !name.isEmpty
            }
        }
    }

    /// The segments before a rest, and where the rest starts (nil: no rest).
    private var fixed: ArraySlice<Segment> { segments.last?.isRest == true ? segments.dropLast() : segments[...] }
    private var restStart: Int? { segments.last?.isRest == true ? segments.count - 1 : nil }

    /// Whether some path matches both patterns, a rest taking at least one segment: the
    /// path a rest's prefix spells (`/a` for `/a/*r`) goes to the pattern that ends there,
    /// else to the rest, in the tree's order (`RouteTree.find`), so two patterns meeting
    /// only there leave nothing to the order of adding (`/a/*r` and `/:key` for `/a`).
    func overlaps(_ other: RoutePattern) -> Bool {
        let (a, b) = (fixed, other.fixed)
        switch (restStart, other.restStart) {
        case (nil, nil):
            return a.count == b.count && zip(a, b).allSatisfy { $0.intersects($1) }
        case (let k?, nil):
            return b.count > k && zip(a, b).allSatisfy { $0.intersects($1) }
        case (nil, let k?):
            return a.count > k && zip(a, b).allSatisfy { $0.intersects($1) }
        case (.some, .some):
            return zip(a, b).allSatisfy { $0.intersects($1) }
        }
    }

    /// Whether every path this pattern matches, `other` matches too.
    func isSubset(of other: RoutePattern) -> Bool {
        let (a, b) = (fixed, other.fixed)
        guard let k = other.restStart else {
            return restStart == nil && a.count == b.count && zip(a, b).allSatisfy { $0.isSubset(of: $1) }
        }
        // `other` takes any segments from `k` on: this pattern must need at least `k`.
        let needs = restStart ?? a.count
        return needs >= k && zip(a, b).allSatisfy { $0.isSubset(of: $1) }
    }

    /// Every path this pattern matches, `other` matches too, and not the other way round.
    func isStrictlyMoreSpecific(than other: RoutePattern) -> Bool {
        isSubset(of: other) && !other.isSubset(of: self)
    }

    /// A path both patterns match (for a conflict's message); call only when they overlap.
    func commonPath(_ other: RoutePattern) -> String {
        let (a, b) = (fixed, other.fixed)
        var parts: [String] = []
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[a.startIndex + i] : nil
            let y = i < b.count ? b[b.startIndex + i] : nil
            if case .literal(let text)? = x {
                parts.append(text)
            } else if case .literal(let text)? = y {
                parts.append(text)
            } else {
                parts.append("x")
            }
        }
        // A rest takes at least one segment here.
        if let k = [restStart, other.restStart].compactMap({ $0 }).max(), parts.count <= k { parts.append("x") }
        return "/" + parts.joined(separator: "/")
    }
}

extension RoutePattern.Segment {
    var isRest: Bool {
        if case .rest = self { return true }
        return false
    }

    /// Whether one path segment matches both.
    func intersects(_ other: Self) -> Bool {
        switch (self, other) {
        case (.literal(let a), .literal(let b)): return a == b
        case (.literal(let text), .parameter(_, let decoded)), (.parameter(_, let decoded), .literal(let text)):
            return !text.isEmpty && (!decoded || PercentDecoding.segment(Substring(text)) != nil)
        default: return true
        }
    }

    /// Whether every path segment this one matches, `other` matches too.
    func isSubset(of other: Self) -> Bool {
        switch (self, other) {
        case (.literal(let a), .literal(let b)): return a == b
        case (.literal(let text), .parameter(_, let decoded)):
            return !text.isEmpty && (!decoded || PercentDecoding.segment(Substring(text)) != nil)
        case (.parameter(_, let a), .parameter(_, let b)): return a || !b
        case (_, .rest): return true
        default: return false
        }
    }
}
