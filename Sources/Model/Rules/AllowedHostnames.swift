/// The hostnames whose pages may call `POST /api/v1/track/click` (client-side click
/// tracking, decision 0027), and the match of a browser's `Origin` against them.
///
/// A pattern is an exact hostname (`shop.example.com`, or `localhost` for development)
/// or a wildcard `*.example.com`, which matches every name *under* `example.com`
/// (`a.example.com`, `a.b.example.com`) but not `example.com` itself: list both when
/// both serve pages. Names are lower-case DNS names (punycode for internationalised
/// ones); IP addresses are refused (a page served from an address is a test, and
/// `localhost` covers the developer's machine). The scheme and port of the origin do not
/// matter: what the workspace vouches for is the name.
public enum AllowedHostnames {
    /// Most patterns a workspace holds.
    public static let maxCount = 50
    /// Longest pattern, in characters (a DNS name's limit, plus `*.`).
    public static let maxLength = 255

    public static let rule =
        "must be a lower-case hostname (a-z, 0-9 and '-' labels of 1 to 63 characters, at least two labels, or localhost) or a wildcard *.example.com, at most \(maxLength) characters, not an IP address"

    /// Why `pattern` cannot be allowed, nil when it can.
    public static func problem(_ pattern: String) -> String? {
        guard pattern.utf8.count <= maxLength else { return "must be at most \(maxLength) characters" }
        if pattern == "localhost" { return nil }
        var name = Substring(pattern)
        if pattern.hasPrefix("*.") { name = name.dropFirst(2) }
        return isName(name) ? nil : rule
    }

    /// Problems of a whole list, as (index, rule); also the count and repeats.
    public static func problems(_ patterns: [String]) -> [(index: Int?, rule: String)] {
        var out: [(index: Int?, rule: String)] = []
        if patterns.count > maxCount { out.append((nil, "must hold at most \(maxCount) hostnames")) }
        var seen: Set<String> = []
        for (i, p) in patterns.enumerated() {
            if let rule = problem(p) {
                out.append((i, rule))
            } else if !seen.insert(p).inserted {
                out.append((i, "is listed twice"))
            }
        }
        return out
    }

    /// True when `host` (an origin's, lower-case) is allowed by one of `patterns`.
    public static func allows(_ host: String, _ patterns: [String]) -> Bool {
        patterns.contains { matches(host, $0) }
    }

    /// True when `host` is `pattern`, or lies under a wildcard's name (at any depth).
    public static func matches(_ host: String, _ pattern: String) -> Bool {
        if pattern.hasPrefix("*.") {
            let suffix = pattern.dropFirst(1)  // ".example.com"
            return host.utf8.count > suffix.utf8.count && host.hasSuffix(suffix)
        }
        return host == pattern
    }

    /// The lower-case host of a browser's `Origin` value (`https://shop.example.com:8443`),
    /// nil when it is not a tuple origin of http or https (`null`, a path, credentials,
    /// a bad port) or names no DNS name.
    public static func originHost(_ origin: String) -> String? {
        let lower = origin.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = lower.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = lower.dropFirst(7)
        } else {
            return nil
        }
        var host = rest
        if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            let port = rest[rest.index(after: colon)...]
            guard (1...5).contains(port.utf8.count), port.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        }
        guard host == "localhost" || isName(host) else { return nil }
        return String(host)
    }

    /// A lower-case DNS name of at least two labels whose last label is not all digits.
    static func isName(_ name: Substring) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
            else { return false }
            let ok = label.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "-")
            }
            guard ok else { return false }
        }
        // An all-digit last label is an IPv4 address.
        return !labels.last!.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
