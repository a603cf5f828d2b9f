/// One parsed HTTP/1.x request.
///
/// Header names are stored lower-cased (HTTP names are case-insensitive) in the
/// order they arrived. Values are trimmed of surrounding optional whitespace.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The raw request target as sent (`/invite?ref=bob`), origin-form or absolute-form.
    public var target: String
    /// The path part of the target, still percent-encoded.
    public var path: Substring {
        // Byte search: Character-based String search costs grapheme breaking per byte.
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) { return target[..<q] }
        return target[...]
    }
    /// The raw query (without `?`), or nil.
    public var query: Substring? {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return target[target.utf8.index(after: q)...]
    }
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(
        method: HTTPMethod, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// Host without port, lower-cased, from the `Host` header.
    public var host: String? {
        guard let h = headers["host"] else { return nil }
        return HTTPRequest.hostname(fromHostHeader: h)
    }

    /// Whether the connection stays open after this request (RFC 9112 §9.3).
    public var keepAlive: Bool {
        let connection = headers["connection"]
        if minorVersion == 0 {
            return connection.map { HTTPHeaders.listContains($0, "keep-alive") } ?? false
        }
        return !(connection.map { HTTPHeaders.listContains($0, "close") } ?? false)
    }

    /// `Go.Example.COM:8443` -> `go.example.com`; `[::1]:80` -> `::1`.
    public static func hostname(fromHostHeader value: String) -> String {
        var v = Substring(value)
        if v.hasPrefix("[") {
            if let end = v.firstIndex(of: "]") { v = v[v.index(after: v.startIndex)..<end] }
        } else if let colon = v.lastIndex(of: ":") {
            v = v[..<colon]
        }
        if v.hasSuffix(".") { v = v.dropLast() }
        return v.lowercased()
    }
}

/// Request methods the edge knows. Others are carried as `.other` and answered 405/501 by routes.
public enum HTTPMethod: Sendable, Equatable, Hashable {
    case get, head, post, put, patch, delete, options
    case other(String)

    public init(_ token: String) {
        switch token {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        default: self = .other(token)
        }
    }

    public var name: String {
        switch self {
        case .get: return "GET"
        case .head: return "HEAD"
        case .post: return "POST"
        case .put: return "PUT"
        case .patch: return "PATCH"
        case .delete: return "DELETE"
        case .options: return "OPTIONS"
        case .other(let s): return s
        }
    }
}
