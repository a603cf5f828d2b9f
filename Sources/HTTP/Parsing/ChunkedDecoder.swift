/// Incremental decoder of a chunked body (RFC 9112 §7.1), fed the connection's input again and
/// again as it grows; it resumes at `position` so each byte is looked at once.
///
/// Strict: hex sizes without sign or `0x`, at most 16 digits; extensions must follow the
/// grammar and the whole size line is bounded, and so is all framing together; CRLF after each
/// chunk's data is required; trailer fields are validated like header fields, bounded by the
/// head limits, then dropped.
struct ChunkedDecoder {
    /// Longest chunk-size line (size and extensions, without CRLF). Extensions carry nothing
    /// the edge uses, so this only bounds what a client can make us buffer.
    static let maxSizeLineBytes = 1024
    static let maxSizeDigits = 16
    /// Framing (size lines, extensions, CRLFs) may take as many bytes as the data it frames
    /// plus this much: tiny chunks with long extensions must not let a client make the edge
    /// buffer a thousand times `maxBodyBytes` before it answers 413.
    static let framingAllowance = 4096

    static func maxFramingBytes(_ limits: HTTPLimits) -> Int { limits.maxBodyBytes + framingAllowance }

    enum Progress {
        case needMore
        /// The body is complete; the request ends at `end` (exclusive offset).
        case done(end: Int)
        case error(HTTPParseError)
    }

    private enum State {
        case sizeLine
        case data(remaining: Int)
        case dataCR
        case dataLF
        case trailer
    }

    private var state = State.sizeLine
    /// Where the body (its first size line) begins.
    private let start: Int
    /// Next byte to read.
    private(set) var position: Int
    /// Where the line being read began, and how far it was searched for LF.
    private var lineStart: Int
    private var scanFrom: Int
    private var trailerStart = 0
    private var trailerCount = 0
    private(set) var body: [UInt8] = []

    init(start: Int) {
        self.start = start
        position = start
        lineStart = start
        scanFrom = start
    }

    /// Decodes from `position` to `count`.
    mutating func decode(_ base: UnsafeRawPointer, count: Int, limits: HTTPLimits) -> Progress {
        while true {
            switch state {
            case .sizeLine:
                guard let lf = HTTPSyntax.findLF(base, from: scanFrom, to: count) else {
                    scanFrom = count
                    return count - lineStart > Self.maxSizeLineBytes + 2
                        ? .error(.badRequest("chunk line too long")) : .needMore
                }
                if lf + 1 - lineStart > Self.maxSizeLineBytes + 2 { return .error(.badRequest("chunk line too long")) }
                guard lf > lineStart, HTTPSyntax.byte(base, lf - 1) == HTTPSyntax.cr else {
                    return .error(.badRequest("chunk line without CRLF"))
                }
                let size: Int
                switch Self.chunkSize(base, lineStart, lf - 1) {
                case .some(let n): size = n
                case .none: return .error(.badRequest("invalid chunk size"))
                }
                if size > limits.maxBodyBytes - body.count { return .error(.bodyTooLarge) }
                position = lf + 1
                if position - start - body.count > Self.maxFramingBytes(limits) { return .error(.bodyTooLarge) }
                if size == 0 {
                    trailerStart = position
                    startLine()
                    state = .trailer
                } else {
                    state = .data(remaining: size)
                }
            case .data(let remaining):
                let n = min(remaining, count - position)
                if n > 0 {
                    body.append(contentsOf: UnsafeRawBufferPointer(start: base + position, count: n))
                    position += n
                }
                if n < remaining {
                    state = .data(remaining: remaining - n)
                    return .needMore
                }
                state = .dataCR
            case .dataCR:
                guard position < count else { return .needMore }
                guard HTTPSyntax.byte(base, position) == HTTPSyntax.cr else {
                    return .error(.badRequest("chunk data without CRLF"))
                }
                position += 1
                state = .dataLF
            case .dataLF:
                guard position < count else { return .needMore }
                guard HTTPSyntax.byte(base, position) == HTTPSyntax.lf else {
                    return .error(.badRequest("chunk data without CRLF"))
                }
                position += 1
                startLine()
                state = .sizeLine
            case .trailer:
                guard let lf = HTTPSyntax.findLF(base, from: scanFrom, to: count) else {
                    scanFrom = count
                    return count - trailerStart > limits.maxHeaderBytes ? .error(.headersTooLarge) : .needMore
                }
                if lf + 1 - trailerStart > limits.maxHeaderBytes { return .error(.headersTooLarge) }
                guard lf > lineStart, HTTPSyntax.byte(base, lf - 1) == HTTPSyntax.cr else {
                    return .error(.badRequest("trailer line without CRLF"))
                }
                position = lf + 1
                if lf - 1 == lineStart { return .done(end: position) }
                if trailerCount >= limits.maxHeaderCount { return .error(.tooManyHeaders) }
                guard HTTPFieldRules.splitField(base, lineStart, lf - 1) != nil else {
                    return .error(.badRequest("malformed trailer field"))
                }
                trailerCount += 1
                startLine()
            }
        }
    }

    /// Hands the decoded body over and leaves the decoder empty.
    mutating func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    private mutating func startLine() {
        lineStart = position
        scanFrom = position
    }

    /// `1*HEXDIG [ chunk-ext ]`; nil when malformed or longer than 16 digits.
    private static func chunkSize(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int? {
        var i = start
        var size = 0
        while i < end {
            let v = HTTPSyntax.hexValue(HTTPSyntax.byte(base, i))
            if v < 0 { break }
            guard i - start < maxSizeDigits, size <= (Int.max - v) >> 4 else { return nil }
            size = size << 4 | v
            i += 1
        }
        guard i > start, HTTPFieldRules.isValidChunkExtension(base, i, end) else { return nil }
        return size
    }
}
