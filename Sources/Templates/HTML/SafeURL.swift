/// An absolute `https:` URL that is safe to put in a page attribute (`href`, `src`, `og:image`...).
///
/// The rule, checked once at construction:
/// - the text starts with `https://` (scheme compared case-insensitively, stored lower-case), so
///   `javascript:`, `data:`, `http:`, `//host` and relative URLs are all rejected;
/// - the host is a DNS name (`[a-z0-9-]` labels, ASCII only: write IDNs in punycode), an IPv4
///   address or a bracketed IPv6 address (a real one: `isIPv6`), stored lower-case; an
///   optional port is 1...65535;
/// - no credentials (`user:pass@`), i.e. no `@` anywhere before the path;
/// - no whitespace, controls, backslash (browsers read it as `/`), `"`, `'`, `<`, `>` or backtick,
///   and every `%` starts a valid escape;
/// - non-ASCII characters in the path, query or fragment are percent-encoded as UTF-8;
/// - at most `maxLength` bytes.
/// The stored text is then still HTML-escaped when rendered (so `&` becomes `&amp;`).
public struct SafeURL: Sendable, Hashable, CustomStringConvertible {
    /// Longest accepted URL, in bytes after percent-encoding.
    public static let maxLength = 2048

    /// The normalised URL (lower-case scheme and host).
    public let absoluteString: String
    /// The lower-case host, without port.
    public let host: String

    /// Nil unless `text` satisfies every rule above.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        let scheme = Array("https://".utf8)
        guard bytes.count > scheme.count, bytes.count <= Self.maxLength else { return nil }
        guard bytes.prefix(scheme.count).map({ $0 | 0x20 }).elementsEqual(scheme.map { $0 | 0x20 }) else {
            return nil
        }
        let rest = bytes[scheme.count...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        guard let (host, port) = Self.checkedAuthority(rest[rest.startIndex..<authorityEnd]) else { return nil }
        guard let tail = Self.checkedTail(rest[authorityEnd...]) else { return nil }
        let normalized = "https://" + host + port + tail
        guard normalized.utf8.count <= Self.maxLength else { return nil }
        self.absoluteString = normalized
        self.host = host
    }

    public var description: String { absoluteString }

    /// `https://<domain>/m/handoff?biqli_token=<token>`: the one text the Deep View copies.
    /// Nil unless `domain` is a DNS name and `token` is `bqmh_` + 43 base64url characters.
    public static func handoff(domain: String, token: String) -> SafeURL? {
        guard isHandoffToken(token), isDNSName(domain) else { return nil }
        return SafeURL("https://" + domain.lowercased() + "/m/handoff?biqli_token=" + token)
    }

    /// `bqmh_` + 43 characters of `[A-Za-z0-9_-]` (exactly 48), as the SDKs require.
    public static func isHandoffToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard bytes.count == 48, bytes.starts(with: Array("bqmh_".utf8)) else { return false }
        return bytes[5...].allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// A DNS name of `[A-Za-z0-9-]` labels (1...63, no leading or trailing hyphen), at most 253 bytes.
    public static func isDNSName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
            else { return false }
            guard label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else { return false }
        }
        return true
    }

    // MARK: - Parts

    /// The lower-case host of `authority` (`host[:port]`) and its `:port` suffix (or ""), or nil.
    private static func checkedAuthority(_ authority: ArraySlice<UInt8>) -> (String, String)? {
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
        var hostPart = authority
        var afterHost: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            // A bracketed IPv6 literal.
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            guard isIPv6(authority[(authority.startIndex + 1)..<close]) else { return nil }
            hostPart = authority[authority.startIndex...close]
            afterHost = authority[(close + 1)...]
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostPart = authority[authority.startIndex..<colon]
                afterHost = authority[colon...]
            }
            guard isDNSName(String(decoding: hostPart, as: UTF8.self)) else { return nil }
        }
        if !afterHost.isEmpty {
            guard afterHost.first == UInt8(ascii: ":"), isPort(afterHost.dropFirst()) else { return nil }
        }
        return (String(decoding: hostPart.map(lowercase), as: UTF8.self), String(decoding: afterHost, as: UTF8.self))
    }

    /// Path, query and fragment: checked, with non-ASCII percent-encoded. Nil when rejected.
    private static func checkedTail(_ tail: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(tail.count)
        var index = tail.startIndex
        while index < tail.endIndex {
            let byte = tail[index]
            switch byte {
            case 0..<0x21, 0x7F, UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
                UInt8(ascii: ">"), UInt8(ascii: "`"):
                return nil
            case UInt8(ascii: "%"):
                guard index + 2 < tail.endIndex, isHexDigit(tail[index + 1]), isHexDigit(tail[index + 2]) else {
                    return nil
                }
                out.append(byte)
            case 0x80...:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// An IPv6 address in RFC 4291 2.2 text form: eight groups of 1 to 4 hex digits, or
    /// fewer around one `::`, the last two groups possibly written as a dotted IPv4
    /// address. No zone id. (`[be47]` or `[1:2]` is no address: browsers refuse them, and
    /// so do URL parsers such as Python's.)
    static func isIPv6(_ text: ArraySlice<UInt8>) -> Bool {
        let colon = UInt8(ascii: ":")
        var split: Int?
        var i = text.startIndex
        while i + 1 < text.endIndex {
            if text[i] == colon && text[i + 1] == colon {
                if split != nil { return false }
                split = i
                i += 2
            } else {
                i += 1
            }
        }
        guard let split else { return groupCount(text, lastMayBeIPv4: true) == 8 }
        guard let head = groupCount(text[text.startIndex..<split], lastMayBeIPv4: false),
            let tail = groupCount(text[(split + 2)...], lastMayBeIPv4: true)
        else { return false }
        return head + tail <= 7
    }

    /// The number of 16-bit groups `text` (`h:h:...`) spells, an IPv4 ending counting
    /// two; 0 for empty text; nil when malformed.
    private static func groupCount(_ text: ArraySlice<UInt8>, lastMayBeIPv4: Bool) -> Int? {
        if text.isEmpty { return 0 }
        let parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        var count = 0
        for (n, part) in parts.enumerated() {
            if lastMayBeIPv4 && n == parts.count - 1 && part.contains(UInt8(ascii: ".")) {
                guard isIPv4(part) else { return nil }
                count += 2
            } else {
                guard (1...4).contains(part.count), part.allSatisfy(isHexDigit) else { return nil }
                count += 1
            }
        }
        return count
    }

    /// Four decimal numbers 0 to 255 without leading zeros, joined by dots.
    private static func isIPv4(_ text: ArraySlice<UInt8>) -> Bool {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy(isDigit) else { return false }
                guard part.count == 1 || part.first != UInt8(ascii: "0") else { return false }
                return part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
            }
    }

    private static func isPort(_ digits: ArraySlice<UInt8>) -> Bool {
        guard (1...5).contains(digits.count), digits.allSatisfy(isDigit) else { return false }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (1...65535).contains(value)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
    }

    private static func lowercase(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
    }
}
