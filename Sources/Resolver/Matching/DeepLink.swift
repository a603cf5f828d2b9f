/// A deep link that could name a short link: `https://<host>/<one segment>[?query]`.
///
/// Anything else (another scheme, credentials, a fragment, a port other than
/// 443, an IP literal, no segment or several, non-ASCII or control characters)
/// does not parse, and the request resolves to `none`: contract obligation 1
/// forbids a 4xx for an unmatchable deep link.
struct DeepLink: Equatable {
    /// Lower-cased host name.
    var host: String
    /// The path segment, exactly as sent (link keys are case-sensitive).
    var key: String
    /// The raw query (after `?`), or nil.
    var query: Substring?

    static func parse(_ text: String) -> DeepLink? {
        let bytes = text.utf8
        // Visible ASCII only; `#` anywhere means a fragment.
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }) else { return nil }
        guard text.utf8.count > 8, text.prefix(8).lowercased() == "https://" else { return nil }
        let rest = text.dropFirst(8)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains("@"), !authority.hasPrefix("[") else { return nil }
        var host = authority
        if let colon = authority.firstIndex(of: ":") {
            let port = authority[authority.index(after: colon)...]
            guard port.isEmpty || port == "443" else { return nil }
            host = authority[..<colon]
        }
        guard !host.isEmpty else { return nil }
        let afterAuthority = rest[authorityEnd...]
        guard afterAuthority.first == "/" else { return nil }
        let pathAndQuery = afterAuthority.dropFirst()
        let pathEnd = pathAndQuery.firstIndex(of: "?") ?? pathAndQuery.endIndex
        let segment = pathAndQuery[..<pathEnd]
        guard !segment.isEmpty, !segment.contains("/") else { return nil }
        let query = pathEnd < pathAndQuery.endIndex ? pathAndQuery[pathAndQuery.index(after: pathEnd)...] : nil
        return DeepLink(host: host.lowercased(), key: String(segment), query: query)
    }
}
