/// When two webhook URLs are "the same URL" (issue 33 item 8): a workspace may register a
/// receiver once, so that no one event goes 50 times to one address (a third party's, say).
///
/// Two URLs are the same when they send the same request to the same place, RFC 3986
/// section 6's syntax-based normalisation on the edge's stored form (`URLRule`: scheme and
/// host already lower-case, non-ASCII already percent-encoded):
/// - the default port is dropped (`:443` for https, `:80` for http) and a port's leading
///   zeros too;
/// - an empty path is `/`; `.` and `..` segments are removed;
/// - percent-escapes of unreserved characters are decoded (`%7E` is `~`), the others
///   upper-cased (`%2f` is `%2F`);
/// - the fragment is dropped (it never reaches the receiver).
/// The query is kept as it is (after the escapes' rule): `?tenant=1` and `?tenant=2` may
/// be two receivers. `http` and `https` stay different URLs, as do two spellings of one
/// IPv6 address and paths that differ by a trailing slash.
public enum WebhookURLIdentity {
    /// The normalised form two URLs are compared by.
    public static func key(_ url: String) -> String {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") else { return String(rest) }
        let scheme = rest[..<colon].lowercased()
        rest = rest[rest.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = authorityLowered(rest[..<authorityEnd], scheme: scheme)
        rest = rest[authorityEnd...]
        var path = rest
        var query: Substring? = nil
        if let q = rest.firstIndex(of: "?") {
            path = rest[..<q]
            query = rest[rest.index(after: q)...]
        }
        var out = scheme + "://" + authority + removeDotSegments(escapes(path))
        if out.hasSuffix("://" + authority) { out += "/" }
        if let query { out += "?" + escapes(query) }
        return out
    }

    /// `host[:port]` without a default or zero-padded port.
    static func authorityLowered(_ authority: Substring, scheme: String) -> String {
        let host: Substring
        var port: Substring = ""
        if let close = authority.lastIndex(of: "]") {
            host = authority[...close]
            port = authority[authority.index(after: close)...].drop { $0 == ":" }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        let digits = port.drop { $0 == "0" }
        let defaultPort = scheme == "https" ? "443" : scheme == "http" ? "80" : ""
        if port.isEmpty || digits == defaultPort[...] { return host.lowercased() }
        return host.lowercased() + ":" + (digits.isEmpty ? "0" : String(digits))
    }

    /// Escapes of unreserved characters decoded, the others upper-cased.
    static func escapes(_ text: Substring) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let hi = hex(bytes[i + 1]),
                let lo = hex(bytes[i + 2])
            {
                let value = hi << 4 | lo
                if isUnreserved(value) {
                    out.append(value)
                } else {
                    out += [UInt8(ascii: "%"), upperHex[Int(hi)], upperHex[Int(lo)]]
                }
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 section 5.2.4, on an absolute path (or an empty one).
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var kept: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            switch segment {
            case ".":
                if last { kept.append("") }
            case "..":
                if !kept.isEmpty { kept.removeLast() }
                if last { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }

    private static let upperHex = Array("0123456789ABCDEF".utf8)

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isUnreserved(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
    }
}
