#if canImport(Glibc)
import HTTPMessages
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The grammar of header fields and of the values the parser must understand to frame a
/// request: Content-Length, Transfer-Encoding, Host and chunk extensions.
///
/// Every rule refuses what RFC 9112 lets a recipient refuse, because a lenient reading that
/// differs from a proxy's reading is how requests get smuggled.
enum HTTPFieldRules {
    /// A header or trailer line split into its parts (offsets into the input).
    struct Field {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
        /// The lower-cased name and role when it is one of `KnownFieldNames`.
        var known: KnownFieldNames.Match?
    }

    /// Splits `field-name ":" OWS field-value OWS` (a line without its CRLF).
    /// Nil for an empty name, a non-token byte in the name (including space before the colon
    /// and a leading SP/HTAB, which is obs-fold), a missing colon, or a forbidden value byte.
    static func splitField(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Field? {
        guard start < end, let colonPointer = memchr(base + start, Int32(HTTPSyntax.colon), end - start) else {
            return nil
        }
        let nameEnd = base.distance(to: UnsafeRawPointer(colonPointer))
        let known = KnownFieldNames.lookup(base, start, nameEnd)
        if known == nil {
            guard nameEnd > start, HTTPSyntax.tokenEnd(base, start, nameEnd) == nameEnd else { return nil }
        }
        guard HTTPSyntax.allFieldValueChars(base, nameEnd + 1, end) else { return nil }
        let valueStart = HTTPSyntax.skipOWS(base, nameEnd + 1, end)
        var valueEnd = end
        while valueEnd > valueStart && HTTPSyntax.isOWS(HTTPSyntax.byte(base, valueEnd - 1)) { valueEnd -= 1 }
        return Field(
            nameStart: start, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd, known: known)
    }

    /// `Content-Length = 1*DIGIT`. Nil for an empty value, any non-digit (sign, comma list,
    /// space inside) or a value that does not fit in an Int.
    static func contentLength(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int? {
        guard start < end else { return nil }
        var value = 0
        for i in start..<end {
            let c = HTTPSyntax.byte(base, i)
            guard HTTPSyntax.isDigit(c) else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(c &- 0x30))
            if o1 || o2 { return nil }
            value = s
        }
        return value
    }

    enum TransferCoding: Equatable {
        /// Exactly `chunked`, the only coding the edge decodes.
        case chunked
        /// A well-formed coding list that is not exactly `chunked` (501).
        case unsupported
        /// Not a transfer-coding list at all (400).
        case invalid
    }

    /// Classifies one Transfer-Encoding field value (already trimmed of OWS).
    /// `1#transfer-coding`, transfer-coding = token *( OWS ";" OWS token BWS "=" BWS
    /// ( token / quoted-string ) ). Empty list elements are tolerated as RFC 9110 §5.6.1
    /// requires, but only `chunked` alone is decoded.
    static func transferCoding(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> TransferCoding {
        if HTTPSyntax.equalsIgnoringCase(base, start, end, "chunked") { return .chunked }
        var i = start
        var codings = 0
        while true {
            i = HTTPSyntax.skipOWS(base, i, end)
            if i < end && HTTPSyntax.byte(base, i) != HTTPSyntax.comma {
                let nameEnd = HTTPSyntax.tokenEnd(base, i, end)
                guard nameEnd > i else { return .invalid }
                codings += 1
                i = nameEnd
                while true {
                    let j = HTTPSyntax.skipOWS(base, i, end)
                    guard j < end, HTTPSyntax.byte(base, j) == HTTPSyntax.semicolon else { break }
                    guard let next = parameter(base, j + 1, end) else { return .invalid }
                    i = next
                }
                i = HTTPSyntax.skipOWS(base, i, end)
            }
            if i == end { break }
            guard HTTPSyntax.byte(base, i) == HTTPSyntax.comma else { return .invalid }
            i += 1
        }
        return codings > 0 ? .unsupported : .invalid
    }

    /// `OWS token BWS "=" BWS ( token / quoted-string )` from `start`; returns its end.
    private static func parameter(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int? {
        var i = HTTPSyntax.skipOWS(base, start, end)
        let nameEnd = HTTPSyntax.tokenEnd(base, i, end)
        guard nameEnd > i else { return nil }
        i = HTTPSyntax.skipOWS(base, nameEnd, end)
        guard i < end, HTTPSyntax.byte(base, i) == HTTPSyntax.equals else { return nil }
        i = HTTPSyntax.skipOWS(base, i + 1, end)
        return tokenOrQuotedString(base, i, end)
    }

    private static func tokenOrQuotedString(_ base: UnsafeRawPointer, _ i: Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        if HTTPSyntax.byte(base, i) == HTTPSyntax.dquote { return HTTPSyntax.quotedStringEnd(base, i, end) }
        let valueEnd = HTTPSyntax.tokenEnd(base, i, end)
        return valueEnd > i ? valueEnd : nil
    }

    /// `chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`
    /// covering all of `[start, end)`.
    static func isValidChunkExtension(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            i = HTTPSyntax.skipOWS(base, i, end)
            guard i < end, HTTPSyntax.byte(base, i) == HTTPSyntax.semicolon else { return false }
            i = HTTPSyntax.skipOWS(base, i + 1, end)
            let nameEnd = HTTPSyntax.tokenEnd(base, i, end)
            guard nameEnd > i else { return false }
            i = nameEnd
            let j = HTTPSyntax.skipOWS(base, i, end)
            if j < end && HTTPSyntax.byte(base, j) == HTTPSyntax.equals {
                guard let valueEnd = tokenOrQuotedString(base, HTTPSyntax.skipOWS(base, j + 1, end), end) else {
                    return false
                }
                i = valueEnd
            }
        }
        return true
    }

    /// `Host = uri-host [ ":" port ]`, deliberately narrower than RFC 3986: a reg-name or IPv4
    /// address made of unreserved characters (ALPHA DIGIT "-" "." "_" "~"), or an IPv6 literal
    /// in brackets (hex digits, ":" and "."); a port of at most five digits. Percent-encoding,
    /// sub-delims, userinfo and IPvFuture are refused: no real client sends them and each is a
    /// chance for two parsers to disagree on the host. An empty Host is refused too (as nginx
    /// does): the edge routes by host.
    static func isValidHost(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Bool {
        var i = start
        guard i < end else { return false }
        if HTTPSyntax.byte(base, i) == 0x5B {  // "["
            i += 1
            let literalStart = i
            while i < end {
                let c = HTTPSyntax.byte(base, i)
                guard HTTPSyntax.hexValue(c) >= 0 || c == HTTPSyntax.colon || c == 0x2E else { break }
                i += 1
            }
            guard i > literalStart, i < end, HTTPSyntax.byte(base, i) == 0x5D else { return false }  // "]"
            i += 1
        } else {
            let nameStart = i
            while i < end && isUnreserved(HTTPSyntax.byte(base, i)) { i += 1 }
            guard i > nameStart else { return false }
        }
        if i == end { return true }
        guard HTTPSyntax.byte(base, i) == HTTPSyntax.colon else { return false }
        i += 1
        guard end - i <= 5 else { return false }
        while i < end {
            guard HTTPSyntax.isDigit(HTTPSyntax.byte(base, i)) else { return false }
            i += 1
        }
        return true
    }

    /// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~", as masks like `HTTPSyntax.tcharLow`.
    static let unreservedLow: UInt64 = 0x03ff_6000_0000_0000
    static let unreservedHigh: UInt64 = 0x47ff_fffe_87ff_fffe

    @inline(__always)
    static func isUnreserved(_ c: UInt8) -> Bool {
        if c < 64 { return (unreservedLow >> UInt64(c)) & 1 == 1 }
        if c < 128 { return (unreservedHigh >> UInt64(c &- 64)) & 1 == 1 }
        return false
    }
}
