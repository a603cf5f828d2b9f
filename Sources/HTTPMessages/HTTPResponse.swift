/// A response to write. `Date`, `Content-Length` and `Connection` are added by the
/// connection when it serializes; handlers set everything else.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, body: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.headers = headers
        self.headers.add("Content-Type", contentType)
        self.body = Array(body.utf8)
    }

    /// Plain-text response (error pages of the transport itself).
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: text)
    }

    /// 302 with `Cache-Control: no-store` (visits must never be cached), and `extra`
    /// fields after those; all in one allocation (a redirect per visit).
    public static func redirect(_ status: Int = 302, to location: String, extra: [(String, String)] = [])
        -> HTTPResponse
    {
        var h = HTTPHeaders()
        h.reserveCapacity(2 + extra.count)
        h.add("Location", location)
        h.add("Cache-Control", "no-store")
        for (name, value) in extra { h.add(name, value) }
        return HTTPResponse(status: status, headers: h)
    }
}
