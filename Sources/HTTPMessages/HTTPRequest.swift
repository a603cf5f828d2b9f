/// One parsed HTTP/1.x request.
///
/// Header names are stored lower-cased (HTTP names are case-insensitive) in the
/// order they arrived. Values are trimmed of surrounding optional whitespace.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target in origin-form (`/invite?ref=bob`), or `*` (OPTIONS): the parser
    /// turns an absolute-form target into its path and query, its authority into Host.
    public var target: String
    /// The path part of the target, still percent-encoded.
    public var path: Substring {
        // Byte search: Character-based String search costs grapheme breaking per byte.
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) { return target[..<q] }
        return target[...]
    }
    /// The raw query (without `?`), or nil.
    public var query: Substring? {
        // On the contiguous bytes, and sliced through the UTF-8 view: the generic search and
        // a String index needing scalar alignment cost 500 instructions on a visit.
        let utf8 = target.utf8
        let question: String.Index?
        if let found = utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: UInt8(ascii: "?")) }) {
            question = found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
        } else {
            question = utf8.firstIndex(of: UInt8(ascii: "?"))
        }
        guard let q = question else { return nil }
        return Substring(utf8[utf8.index(after: q)...])
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
    /// Byte-level: this runs on every visit, and Character-based String search costs
    /// grapheme breaking per byte.
    public static func hostname(fromHostHeader value: String) -> String {
        // Almost every Host is already a bare lower-case name: hand it back as it is
        // (the general path below cost ~1,500 instructions on every visit).
        var bytes = value
        let bare = bytes.withUTF8 { u in
            guard let first = u.first, let last = u.last, first != UInt8(ascii: "["), last != UInt8(ascii: ".") else {
                return false
            }
            return !u.contains { $0 == UInt8(ascii: ":") || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        }
        if bare { return value }
        let u = value.utf8
        var start = u.startIndex
        var end = u.endIndex
        if u.first == UInt8(ascii: "[") {
            start = u.index(after: start)
            end = u[start...].firstIndex(of: UInt8(ascii: "]")) ?? end
        } else if let colon = u.lastIndex(of: UInt8(ascii: ":")) {
            end = colon
        }
        if end > start, u[u.index(before: end)] == UInt8(ascii: ".") { end = u.index(before: end) }
        let host = u[start..<end]
        if !host.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            return String(value[start..<end])
        }
        return String(
            decoding: host.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
