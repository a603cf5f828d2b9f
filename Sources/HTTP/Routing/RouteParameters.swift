/// Values captured by a route's parameter and rest segments: still percent-encoded,
/// except in a group that decodes its parameters (`RouteGroup.decodingParameters`).
public struct RouteParameters: Sendable {
    public var values: [(String, String)] = []
    public init() {}
    public subscript(_ name: String) -> String? {
        for (k, v) in values where k == name { return v }
        return nil
    }
}
