/// A complete response, independent of any HTTP library: the edge copies `status`, `headers`
/// (in order, names as written) and `body` into its own response type. For `HEAD`, it sends the
/// same status and headers with no body (adding `Content-Length` is the transport's job).
public struct RenderedPage: Sendable {
    public let status: Int
    public let headers: [(String, String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.0.lowercased() == wanted }?.1
    }
}
