import HTTPMessages

/// What the parser has learnt from the request line and header fields of the request it is
/// reading, line by line, so a head that arrives in pieces is never re-read.
struct RequestHead {
    /// How the body is delimited, decided once the head is complete.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    var method: HTTPMethod = .get
    var target = ""
    var minorVersion = 1
    /// The authority of an absolute-form target; it replaces Host (RFC 9112 §3.2.2).
    var absoluteAuthority: String?
    /// Where the path of an absolute-form target starts (just after its authority).
    var absolutePathStart: Int?
    /// Fields in arrival order, names lower-cased; handed to the request when the head is done.
    var headers = HTTPHeaders()
    var hostCount = 0
    var contentLength: Int?
    var transferEncodingCount = 0
    var transferEncodingIsChunked = false
    var expectsContinue = false

    mutating func reset() {
        method = .get
        target = ""
        minorVersion = 1
        absoluteAuthority = nil
        absolutePathStart = nil
        headers = HTTPHeaders()
        hostCount = 0
        contentLength = nil
        transferEncodingCount = 0
        transferEncodingIsChunked = false
        expectsContinue = false
    }

    /// `method SP request-target SP HTTP-version` (without CRLF).
    mutating func parseRequestLine(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> HTTPParseError? {
        let methodEnd = HTTPSyntax.tokenEnd(base, start, end)
        guard methodEnd > start, methodEnd < end, HTTPSyntax.byte(base, methodEnd) == HTTPSyntax.sp else {
            return .badRequest("malformed method")
        }
        let targetStart = methodEnd + 1
        let targetEnd = HTTPSyntax.targetEnd(base, targetStart, end)
        guard targetEnd > targetStart, targetEnd < end, HTTPSyntax.byte(base, targetEnd) == HTTPSyntax.sp else {
            return .badRequest("malformed request-target")
        }
        switch Self.version(base, targetEnd + 1, end) {
        case .some(let minor): minorVersion = minor
        case .none: return .badRequest("malformed HTTP-version")
        }
        if minorVersion < 0 { return .versionNotSupported }

        method = Self.method(base, start, methodEnd)
        if case .other(let name) = method, name == "CONNECT" {
            // An origin edge is no tunnel; refusing here keeps authority-form out entirely.
            return .badRequest("CONNECT is not supported")
        }
        if let error = checkTargetForm(base, targetStart, targetEnd) { return error }
        target = originForm(base, targetStart, targetEnd)
        return nil
    }

    /// 1 or 0 for `HTTP/1.1` and `HTTP/1.0`, and 1 for a higher minor version of HTTP/1
    /// (`HTTP/1.2`...: RFC 9110 section 6.2, a recipient processes it as the highest
    /// minor version it implements); -1 for another well-formed `HTTP/x.y` (505); nil
    /// for anything else (400), including lower-case `http/1.1`.
    private static func version(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int? {
        guard end - start == 8 else { return nil }
        let b = { (i: Int) in HTTPSyntax.byte(base, start + i) }
        guard b(0) == 0x48, b(1) == 0x54, b(2) == 0x54, b(3) == 0x50, b(4) == 0x2F,  // "HTTP/"
            HTTPSyntax.isDigit(b(5)), b(6) == 0x2E, HTTPSyntax.isDigit(b(7))
        else { return nil }
        if b(5) == 0x31 { return b(7) == 0x30 ? 0 : 1 }
        return -1
    }

    /// The common methods without building a String first.
    private static func method(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> HTTPMethod {
        let n = end - start
        let b0 = HTTPSyntax.byte(base, start)
        if n == 3 && b0 == 0x47 && HTTPSyntax.byte(base, start + 1) == 0x45 && HTTPSyntax.byte(base, start + 2) == 0x54
        {
            return .get
        }
        return HTTPMethod(HTTPSyntax.string(base, start, end))
    }

    /// origin-form (`/...`), absolute-form (`http://` or `https://` with a valid authority), or
    /// asterisk-form for OPTIONS. Everything else, authority-form included, is a 400.
    private mutating func checkTargetForm(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> HTTPParseError? {
        let first = HTTPSyntax.byte(base, start)
        if first == 0x2F { return nil }  // "/"
        if first == 0x2A {  // "*"
            return end - start == 1 && method == .options ? nil : .badRequest("asterisk-form outside OPTIONS")
        }
        var authorityStart = -1
        if end - start > 7 && HTTPSyntax.equalsIgnoringCase(base, start, start + 7, "http://") {
            authorityStart = start + 7
        } else if end - start > 8 && HTTPSyntax.equalsIgnoringCase(base, start, start + 8, "https://") {
            authorityStart = start + 8
        }
        guard authorityStart >= 0 else { return .badRequest("unsupported request-target form") }
        var authorityEnd = authorityStart
        while authorityEnd < end {
            let c = HTTPSyntax.byte(base, authorityEnd)
            if c == 0x2F || c == 0x3F || c == 0x23 { break }  // "/" "?" "#"
            authorityEnd += 1
        }
        guard HTTPFieldRules.isValidHost(base, authorityStart, authorityEnd) else {
            return .badRequest("invalid authority in absolute-form")
        }
        absoluteAuthority = HTTPSyntax.string(base, authorityStart, authorityEnd)
        absolutePathStart = authorityEnd
        return nil
    }

    /// The target every layer above sees: origin-form (`/path?query`) or `*`. An
    /// absolute-form target (`http://host/path?query`, what proxies send, RFC 9112
    /// section 3.2.2) loses its scheme and authority here, once: the authority has
    /// replaced Host, and routes, redirects and logs never meet a URL as a path.
    private func originForm(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> String {
        guard let from = absolutePathStart else { return HTTPSyntax.string(base, start, end) }
        if from == end { return "/" }
        let rest = HTTPSyntax.string(base, from, end)
        return HTTPSyntax.byte(base, from) == 0x2F ? rest : "/" + rest
    }

    /// One header line (without CRLF): validated, recorded, and checked for the fields that
    /// frame the request.
    mutating func addField(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> HTTPParseError? {
        guard let f = HTTPFieldRules.splitField(base, start, end) else {
            let c = HTTPSyntax.byte(base, start)
            return .badRequest(HTTPSyntax.isOWS(c) ? "obs-fold" : "malformed header field")
        }
        // The names that frame a request are all known names, so their role says what they are.
        let name: String
        let role: KnownFieldNames.Role
        if let known = f.known {
            name = known.name
            role = known.role
        } else {
            name = HTTPSyntax.lowercasedTokenString(base, f.nameStart, f.nameEnd)
            role = .plain
        }
        switch role {
        case .host:
            hostCount += 1
            guard hostCount == 1 else { return .badRequest("more than one Host") }
            guard HTTPFieldRules.isValidHost(base, f.valueStart, f.valueEnd) else { return .badRequest("invalid Host") }
        case .contentLength:
            // Even identical repeats are refused: a proxy in front may have picked another copy.
            guard contentLength == nil else { return .badRequest("repeated Content-Length") }
            guard let n = HTTPFieldRules.contentLength(base, f.valueStart, f.valueEnd) else {
                return .badRequest("invalid Content-Length")
            }
            contentLength = n
        case .transferEncoding:
            switch HTTPFieldRules.transferCoding(base, f.valueStart, f.valueEnd) {
            case .invalid: return .badRequest("invalid Transfer-Encoding")
            case .chunked: transferEncodingIsChunked = transferEncodingCount == 0
            case .unsupported: transferEncodingIsChunked = false
            }
            transferEncodingCount += 1
        case .expect:
            // Other expectations are kept for the router (417 is an application answer).
            if minorVersion == 1 && HTTPSyntax.equalsIgnoringCase(base, f.valueStart, f.valueEnd, "100-continue") {
                expectsContinue = true
            }
        case .plain:
            break
        }
        // One allocation for a typical request's fields instead of growing 1, 2, 4, 8, 16.
        if headers.count == 0 { headers.reserveCapacity(16) }
        headers.add(name, HTTPSyntax.string(base, f.valueStart, f.valueEnd))
        return nil
    }

    /// The framing rules of RFC 9112 §6, strict: anything a proxy could read differently is refused.
    func framing(limits: HTTPLimits) -> Result<Framing, HTTPParseError> {
        if minorVersion == 1 && hostCount == 0 { return .failure(.badRequest("missing Host")) }
        if transferEncodingCount > 0 {
            if minorVersion == 0 { return .failure(.badRequest("Transfer-Encoding in HTTP/1.0")) }
            if contentLength != nil { return .failure(.badRequest("Transfer-Encoding with Content-Length")) }
            guard transferEncodingCount == 1 && transferEncodingIsChunked else {
                return .failure(.unsupportedTransferCoding)
            }
            return .success(.chunked)
        }
        if let n = contentLength {
            if n > limits.maxBodyBytes { return .failure(.bodyTooLarge) }
            return .success(n == 0 ? .none : .length(n))
        }
        return .success(.none)
    }

    /// The finished request; the caller resets the head before the next one.
    func makeRequest(body: [UInt8]) -> HTTPRequest {
        var fields = headers
        if let authority = absoluteAuthority { fields.set("host", authority) }
        return HTTPRequest(method: method, target: target, minorVersion: minorVersion, headers: fields, body: body)
    }
}
