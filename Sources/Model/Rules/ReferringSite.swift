/// The referring site of a visit: the host of its `Referer`, the only part of it the edge
/// keeps (decision 0026, "Referring sites"). Browsers send the page's origin alone
/// across sites by default (`strict-origin-when-cross-origin`); an app's in-app browser
/// or a typed address sends none. The host is lowercased, without its port, user
/// information or trailing dot, and without a leading `www.` (`www.example.com` and
/// `example.com` are one site); anything else (another scheme, a host with other
/// characters, without a dot, longer than a DNS name) is no referring site. A site always
/// has a dot or brackets, so the reports' `none` and `other` are never one.
public enum ReferringSite {
    /// The longest host kept: a DNS name's length.
    public static let maxLength = 253

    /// The site of `referer` (the header's value), or nil.
    public static func host(_ referer: String?) -> String? {
        guard let referer else { return nil }
        var rest = Substring(referer)
        guard let scheme = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<scheme].lowercased()
        guard name == "https" || name == "http" else { return nil }
        rest = rest[rest.index(after: scheme)...]
        guard rest.hasPrefix("//") else { return nil }
        rest = rest.dropFirst(2)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        if authority.hasPrefix("[") {
            // An IPv6 literal: kept with its brackets, without the port after them.
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            // ASCII hex digits, colons and dots (an embedded IPv4), at most an address's length.
            let inside = host.utf8.dropFirst().dropLast()
            guard (1...45).contains(inside.count),
                inside.allSatisfy({ c in
                    (c >= 0x30 && c <= 0x3A) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66) || c == 0x2E
                })
            else { return nil }
        } else {
            host = authority.prefix { $0 != ":" }
            let port = authority.dropFirst(host.count)
            guard port.isEmpty || port.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            if host.hasSuffix(".") { host = host.dropLast() }
            guard !host.isEmpty,
                host.utf8.allSatisfy({ c in
                    (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
                        || c == 0x2E
                }), !host.hasPrefix("."), !host.contains("..")
            else { return nil }
        }
        var site = host.lowercased()
        if site.hasPrefix("www.") { site.removeFirst(4) }
        guard site.utf8.count <= maxLength, site.hasPrefix("[") || site.contains(".") else { return nil }
        return site
    }
}
