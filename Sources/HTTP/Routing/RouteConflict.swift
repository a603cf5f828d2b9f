/// Two routes of one table that can take the same request, neither strictly more specific
/// than the other: which one answers would depend on something other than the request.
/// The table refuses them (`RouterBuilder.validate`; `build` stops the process).
public struct RouteConflict: Error, Equatable, CustomStringConvertible {
    /// The two patterns as written, and a path both match.
    public let first: String
    public let second: String
    public let path: String

    public var description: String {
        "routes \(first) and \(second) both match \(path) and neither is more specific"
    }
}
