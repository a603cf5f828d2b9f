/// The complete answer to one request: the HTTP layer adds only framing headers
/// (`Content-Length`, `Date`, `Connection`).
public struct ResolveOutput: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        for (n, v) in headers where n.lowercased() == wanted { return v }
        return nil
    }
}
