/// Values captured by `:name` and `*name` segments, still percent-encoded.
public struct RouteParameters: Sendable {
    public var values: [(String, String)] = []
    public init() {}
    public subscript(_ name: String) -> String? {
        for (k, v) in values where k == name { return v }
        return nil
    }
}
