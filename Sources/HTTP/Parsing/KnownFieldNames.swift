/// Field names that real clients send on almost every request, matched case-insensitively so
/// their lower-cased String is a constant: no token scan, no UTF-8 validation, no allocation.
/// This roughly halves the cost of a browser's head. A name not listed is still accepted,
/// just built the slow way.
enum KnownFieldNames {
    /// What the parser does with a field besides keeping it.
    enum Role: UInt8 {
        case plain
        case host
        case contentLength
        case transferEncoding
        case expect
    }

    /// A known name, lower-cased, and its role.
    struct Match {
        var name: String
        var role: Role
    }

    /// The lower-cased name when `[start, end)` spells one of the known names in any case.
    /// A match implies a valid token: the literals are tokens and the comparison is exact.
    static func lookup(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Match? {
        @inline(__always) func matches(_ literal: StaticString) -> Bool {
            equalsLowercaseLiteral(base, start, literal)
        }
        // Each literal appears twice: once to compare bytes, once as the (constant) result.
        switch end - start {
        case 4:
            if matches("host") { return Match(name: "host", role: .host) }
        case 6:
            if matches("accept") { return Match(name: "accept", role: .plain) }
            if matches("cookie") { return Match(name: "cookie", role: .plain) }
            if matches("origin") { return Match(name: "origin", role: .plain) }
            if matches("expect") { return Match(name: "expect", role: .expect) }
            if matches("pragma") { return Match(name: "pragma", role: .plain) }
        case 7:
            if matches("referer") { return Match(name: "referer", role: .plain) }
            if matches("upgrade") { return Match(name: "upgrade", role: .plain) }
        case 9:
            if matches("sec-ch-ua") { return Match(name: "sec-ch-ua", role: .plain) }
            if matches("x-real-ip") { return Match(name: "x-real-ip", role: .plain) }
        case 10:
            if matches("user-agent") { return Match(name: "user-agent", role: .plain) }
            if matches("connection") { return Match(name: "connection", role: .plain) }
            if matches("keep-alive") { return Match(name: "keep-alive", role: .plain) }
        case 12:
            if matches("content-type") { return Match(name: "content-type", role: .plain) }
        case 13:
            if matches("authorization") { return Match(name: "authorization", role: .plain) }
            if matches("cache-control") { return Match(name: "cache-control", role: .plain) }
            if matches("if-none-match") { return Match(name: "if-none-match", role: .plain) }
        case 14:
            if matches("content-length") { return Match(name: "content-length", role: .contentLength) }
            if matches("sec-fetch-site") { return Match(name: "sec-fetch-site", role: .plain) }
            if matches("sec-fetch-mode") { return Match(name: "sec-fetch-mode", role: .plain) }
            if matches("sec-fetch-user") { return Match(name: "sec-fetch-user", role: .plain) }
            if matches("sec-fetch-dest") { return Match(name: "sec-fetch-dest", role: .plain) }
        case 15:
            if matches("accept-encoding") { return Match(name: "accept-encoding", role: .plain) }
            if matches("accept-language") { return Match(name: "accept-language", role: .plain) }
            if matches("x-forwarded-for") { return Match(name: "x-forwarded-for", role: .plain) }
            if matches("idempotency-key") { return Match(name: "idempotency-key", role: .plain) }
        case 16:
            if matches("sec-ch-ua-mobile") { return Match(name: "sec-ch-ua-mobile", role: .plain) }
            if matches("x-requested-with") { return Match(name: "x-requested-with", role: .plain) }
        case 17:
            if matches("transfer-encoding") { return Match(name: "transfer-encoding", role: .transferEncoding) }
            if matches("x-forwarded-proto") { return Match(name: "x-forwarded-proto", role: .plain) }
            if matches("if-modified-since") { return Match(name: "if-modified-since", role: .plain) }
        case 18:
            if matches("sec-ch-ua-platform") { return Match(name: "sec-ch-ua-platform", role: .plain) }
        case 25:
            if matches("upgrade-insecure-requests") { return Match(name: "upgrade-insecure-requests", role: .plain) }
        default:
            break
        }
        return nil
    }

    /// Whether the `literal.utf8CodeUnitCount` bytes at `start` equal `literal` (lower-case
    /// ASCII) once A-Z are lower-cased, eight bytes at a time. Exact: a byte >= 0x80 keeps its
    /// high bit through `lowercasedASCII`, so it can never equal an ASCII literal byte.
    @inline(__always)
    static func equalsLowercaseLiteral(_ base: UnsafeRawPointer, _ start: Int, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        let lit = UnsafeRawPointer(literal.utf8Start)
        var i = 0
        while n - i >= 8 {
            let x = base.loadUnaligned(fromByteOffset: start + i, as: UInt64.self)
            if HTTPSyntax.lowercasedASCII(x) != lit.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < n {
            let c = HTTPSyntax.byte(base, start + i)
            if (c &- 0x41 < 26 ? c | 0x20 : c) != lit.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        return true
    }
}
