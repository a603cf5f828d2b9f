import HTTPMessages

/// A strict, incremental HTTP/1.1 request parser (RFC 9112) with no I/O.
///
/// The connection hands it its unconsumed input, starting at a request boundary, after every
/// read. While the answer is `.needMore` the parser keeps offsets into that input (never
/// pointers, so the caller may move its buffer) and resumes where it stopped: a head that
/// arrives byte by byte costs O(bytes), not O(bytes²). Limits are enforced before the end of
/// a line or head arrives, so a client cannot make the edge buffer without bound.
///
/// Decisions (strict where RFC 9112 allows a choice; the connection closes after any error):
/// - Lines end with CRLF only. A bare LF or a bare CR anywhere in the head is a 400.
/// - Up to four empty lines before the request line are ignored (RFC 9112 §2.2).
/// - CONNECT is refused with 400: the edge is an origin server, not a tunnel, and this keeps
///   authority-form targets out entirely.
/// - Only `Transfer-Encoding: chunked` alone is decoded; other well-formed codings are 501.
/// - The request-target is visible ASCII only (non-ASCII bytes are 400; clients percent-encode).
/// - Host is a reg-name/IPv4 of unreserved characters or a bracketed IPv6 literal, with an
///   optional port; empty, percent-encoded or sub-delim hosts are 400. For an absolute-form
///   target the target's authority replaces the Host value (RFC 9112 §3.2.2).
/// - Field values may hold obs-text; it reaches `HTTPRequest` decoded as UTF-8 (invalid
///   sequences become U+FFFD).
/// - Unknown `Expect` values are kept for the router (417 is an application decision).
public struct HTTPRequestParser: Sendable {
    public enum Step: Sendable {
        case needMore
        case request(HTTPRequest, consumed: Int)
        case error(HTTPParseError)
    }

    /// Empty lines tolerated before a request line (some clients send CRLF after a body).
    static let maxLeadingEmptyLines = 4

    private enum Phase {
        case head
        case fixedBody
        case chunkedBody
        /// An error was returned; the caller closes the connection.
        case failed
    }

    public let limits: HTTPLimits
    private var phase = Phase.head
    /// Length of the input at the last call.
    private var seen = 0
    /// Start of the line being read and how far it has been searched for LF.
    private var lineStart = 0
    private var scanFrom = 0
    /// Start of the request line; -1 while only empty lines have arrived.
    private var headStart = -1
    private var leadingEmptyLines = 0
    private var head = RequestHead()
    private var bodyStart = 0
    private var bodyLength = 0
    private var chunked = ChunkedDecoder(start: 0)
    private var lastError: HTTPParseError?

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// True once at least one byte of the current request has been seen (the head deadline runs).
    public var hasPartialRequest: Bool { seen > 0 }

    /// True when the head is complete and the body is still arriving (the body timeout runs).
    public var isReadingBody: Bool { phase == .fixedBody || phase == .chunkedBody }

    /// The current request's head asked for `Expect: 100-continue` (HTTP/1.1 only, as
    /// RFC 9110 §10.1.1 requires) and no byte of its body has arrived yet.
    public var expectsContinue: Bool { isReadingBody && head.expectsContinue && seen == bodyStart }

    public mutating func reset() {
        phase = .head
        seen = 0
        lineStart = 0
        scanFrom = 0
        headStart = -1
        leadingEmptyLines = 0
        head.reset()
        bodyStart = 0
        bodyLength = 0
        chunked = ChunkedDecoder(start: 0)
        lastError = nil
    }

    /// `bytes` is the connection's unconsumed input, starting at a request boundary. Called again
    /// with the same (grown) input while it returns .needMore; keeps scan state so repeated calls
    /// cost O(new bytes). After .request the caller drops `consumed` bytes and calls again for a
    /// pipelined next request; the parser resets itself. After .error the caller closes the
    /// connection (further calls repeat the error).
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) -> Step {
        if phase == .failed, let error = lastError { return .error(error) }
        let count = bytes.count
        // A shorter input breaks the contract; starting over is the only safe reading of it.
        if count < seen { reset() }
        seen = count
        guard let base = bytes.baseAddress, count > 0 else { return .needMore }
        switch phase {
        case .head: return parseHead(base, count)
        case .fixedBody: return finishFixedBody(base, count)
        case .chunkedBody: return continueChunked(base, count)
        case .failed: return .needMore  // unreachable: handled above
        }
    }

    private mutating func parseHead(_ base: UnsafeRawPointer, _ count: Int) -> Step {
        while true {
            guard let lf = HTTPSyntax.findLF(base, from: scanFrom, to: count) else {
                scanFrom = count
                // Enforce the limits on the unfinished line now: both bounds hold for any ending.
                if headStart < 0 {
                    if count - lineStart > limits.maxRequestLineBytes + 2 { return fail(.uriTooLong) }
                } else if count - headStart > limits.maxHeaderBytes {
                    return fail(.headersTooLarge)
                }
                return .needMore
            }
            let next = lf + 1
            // Limits first, so the answer is the same whether the line arrived whole or in pieces.
            if headStart < 0 {
                if next - lineStart > limits.maxRequestLineBytes + 2 { return fail(.uriTooLong) }
            } else if next - headStart > limits.maxHeaderBytes {
                return fail(.headersTooLarge)
            }
            guard lf > lineStart, HTTPSyntax.byte(base, lf - 1) == HTTPSyntax.cr else {
                return fail(.badRequest("line not ended by CRLF"))
            }
            let contentEnd = lf - 1
            if headStart < 0 {
                if contentEnd == lineStart {
                    leadingEmptyLines += 1
                    if leadingEmptyLines > Self.maxLeadingEmptyLines {
                        return fail(.badRequest("too many empty lines"))
                    }
                } else {
                    headStart = lineStart
                    if let error = head.parseRequestLine(base, lineStart, contentEnd) { return fail(error) }
                }
            } else if contentEnd == lineStart {
                return finishHead(base, count, headEnd: next)
            } else {
                if head.headers.count >= limits.maxHeaderCount { return fail(.tooManyHeaders) }
                if let error = head.addField(base, lineStart, contentEnd) { return fail(error) }
            }
            lineStart = next
            scanFrom = next
        }
    }

    private mutating func finishHead(_ base: UnsafeRawPointer, _ count: Int, headEnd: Int) -> Step {
        switch head.framing(limits: limits) {
        case .failure(let error):
            return fail(error)
        case .success(.none):
            return complete(consumed: headEnd, body: [])
        case .success(.length(let n)):
            bodyStart = headEnd
            bodyLength = n
            phase = .fixedBody
            return finishFixedBody(base, count)
        case .success(.chunked):
            bodyStart = headEnd
            chunked = ChunkedDecoder(start: headEnd)
            phase = .chunkedBody
            return continueChunked(base, count)
        }
    }

    private mutating func finishFixedBody(_ base: UnsafeRawPointer, _ count: Int) -> Step {
        let end = bodyStart + bodyLength
        guard count >= end else { return .needMore }
        let body = [UInt8](UnsafeRawBufferPointer(start: base + bodyStart, count: bodyLength))
        return complete(consumed: end, body: body)
    }

    private mutating func continueChunked(_ base: UnsafeRawPointer, _ count: Int) -> Step {
        switch chunked.decode(base, count: count, limits: limits) {
        case .needMore: return .needMore
        case .error(let error): return fail(error)
        case .done(let end): return complete(consumed: end, body: chunked.takeBody())
        }
    }

    private mutating func complete(consumed: Int, body: [UInt8]) -> Step {
        let request = head.makeRequest(body: body)
        reset()
        return .request(request, consumed: consumed)
    }

    private mutating func fail(_ error: HTTPParseError) -> Step {
        phase = .failed
        lastError = error
        return .error(error)
    }
}
