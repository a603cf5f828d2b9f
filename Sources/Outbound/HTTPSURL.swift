/// An `https://host[:port]/path?query` URL, as the CA's directory gives them, or (only
/// when asked: webhooks an operator allowed) an `http://` one.
public struct HTTPSURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The origin-form target: path and query, `/` at least.
    public var target: String
    /// False for `http://`: no TLS.
    public var isTLS: Bool

    public init?(_ text: String, allowHTTP: Bool = false) {
        let lower = text.prefix(8).lowercased()
        let isTLS = lower.hasPrefix("https://")
        guard isTLS || (allowHTTP && lower.hasPrefix("http://")) else { return nil }
        self.isTLS = isTLS
        let rest = text.dropFirst(isTLS ? "https://".count : "http://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        guard !authority.isEmpty, !authority.contains("@"), !target.contains(" ") else { return nil }
        var host = Substring(authority)
        var port = isTLS ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else { return nil }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            guard let p = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = p
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.host = host.lowercased()
        self.port = port
        self.target = target
    }

    /// An IPv4 or IPv6 literal (certificate checks then match an IP SAN).
    var isIPAddress: Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// The `Host` header's value.
    var hostHeader: String {
        let h = host.contains(":") ? "[" + host + "]" : host
        return port == (isTLS ? 443 : 80) ? h : h + ":" + String(port)
    }

    /// Scheme, host and port: which connections may carry a request to this URL.
    var origin: String { (isTLS ? "https://" : "http://") + hostHeader }

    public var description: String { (isTLS ? "https://" : "http://") + hostHeader + target }
}
