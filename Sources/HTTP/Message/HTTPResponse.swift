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

/// Reason phrases for the status line.
public enum HTTPStatus {
    public static func reason(_ code: Int) -> String {
        switch code {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
