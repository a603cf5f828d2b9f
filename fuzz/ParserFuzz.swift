// libFuzzer target for HTTPRequestParser. Built by scripts/fuzz together with the pure files of
// module HTTP (Sources/HTTP/Message, Sources/HTTP/Parsing) into one module, so no `import HTTP`.
//
// For each input and two sets of limits (the defaults, and tiny ones that make every limit
// reachable with short inputs) it checks:
// - no crash, no trap, no leak (ASan), and termination (consumed > 0 on every request);
// - 0 < consumed <= input size on .request;
// - feeding the input in two reads (cut at a data-derived point), in many reads, or byte by
//   byte gives exactly the answer of one read: the parser's incremental state never changes
//   its reading;
// - the same for every pipelined request that follows, with one parser reused across them;
// - while it needs more, the input stays within `limits.maxBufferedBytes`;
// - parsed requests hold only what the grammar allows (lower-case token names, clean values,
//   version 0 or 1, body within the limit) and the state flags agree with the answers.

let fuzzLimits = [
    HTTPLimits(),
    HTTPLimits(maxRequestLineBytes: 48, maxHeaderBytes: 96, maxHeaderCount: 4, maxBodyBytes: 32),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func parserFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    for limits in fuzzLimits {
        checkStream(input, limits: limits)
    }
    return 0
}

/// Parses every pipelined request in `input` with one parser, checking each against fresh
/// parsers fed the same bytes in pieces.
func checkStream(_ input: [UInt8], limits: HTTPLimits) {
    var parser = HTTPRequestParser(limits: limits)
    var offset = 0
    var requests = 0
    while true {
        let rest = Array(input[offset...])
        let step = rest.withUnsafeBytes { parser.parse($0) }
        checkInvariants(step, parser: parser, inputCount: rest.count, limits: limits)
        let expected = describe(step)
        let cut = splitPoint(rest)
        check(describe(fed(rest, cuts: [cut], limits: limits)) == expected, "two reads at \(cut)", rest)
        if requests == 0 {
            // The expensive feedings once per input; later requests get the two-read check
            // and the comparison between the reused parser and the fresh one above.
            let everyByte = fed(rest, cuts: Array(0...rest.count), limits: limits, copying: false)
            check(describe(everyByte) == expected, "byte by byte", rest)
            let cuts = stride(from: cut % 31, to: rest.count, by: 1 + cut % 61).map { $0 }
            check(describe(fed(rest, cuts: Array(cuts.prefix(16)), limits: limits)) == expected, "many reads", rest)
        }
        guard case .request(_, let consumed) = step else { return }
        offset += consumed
        requests += 1
        check(requests <= input.count, "more requests than bytes", input)
    }
}

func checkInvariants(_ step: HTTPRequestParser.Step, parser: HTTPRequestParser, inputCount: Int, limits: HTTPLimits) {
    switch step {
    case .needMore:
        check(parser.hasPartialRequest == (inputCount > 0), "hasPartialRequest after needMore", [])
        check(inputCount <= limits.maxBufferedBytes, "needMore past maxBufferedBytes", [])
    case .error:
        break
    case .request(let r, let consumed):
        check(consumed > 0 && consumed <= inputCount, "consumed \(consumed) of \(inputCount)", [])
        check(consumed <= limits.maxBufferedBytes, "request longer than maxBufferedBytes", [])
        check(!parser.hasPartialRequest && !parser.isReadingBody && !parser.expectsContinue, "state not reset", [])
        check(r.minorVersion == 0 || r.minorVersion == 1, "minor version \(r.minorVersion)", [])
        check(!r.target.isEmpty && r.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "target", [])
        check(r.body.count <= limits.maxBodyBytes, "body over the limit", [])
        check(r.headers.count <= limits.maxHeaderCount + 1, "too many fields", [])
        check(r.minorVersion == 0 || r.headers.values("host").count == 1, "Host count", [])
        for f in r.headers {
            check(!f.name.isEmpty && f.name.utf8.allSatisfy { isLowerToken($0) }, "field name \(f.name)", [])
            check(f.value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }, "field value", [])
            check(f.value.first != " " && f.value.last != " ", "untrimmed value", [])
        }
        let hasCL = r.headers.contains("content-length")
        let hasTE = r.headers.contains("transfer-encoding")
        check(!(hasCL && hasTE), "Content-Length with Transfer-Encoding accepted", [])
        check(r.headers.values("content-length").count <= 1, "repeated Content-Length accepted", [])
        if hasCL && !hasTE { check(r.headers["content-length"].flatMap { Int($0) } == r.body.count, "CL != body", []) }
    }
}

/// Growing prefixes as a connection would see them; stops at the first answer. With `copying`
/// each prefix is a fresh buffer (so a pointer kept from an earlier call would show); without,
/// prefixes are views of one buffer, which keeps byte-by-byte feeding linear.
func fed(_ input: [UInt8], cuts: [Int], limits: HTTPLimits, copying: Bool = true) -> HTTPRequestParser.Step {
    var parser = HTTPRequestParser(limits: limits)
    return input.withUnsafeBytes { whole in
        for cut in cuts where cut <= input.count {
            let step: HTTPRequestParser.Step
            if copying {
                let prefix = Array(input[..<cut])
                step = prefix.withUnsafeBytes { parser.parse($0) }
            } else {
                step = parser.parse(UnsafeRawBufferPointer(rebasing: whole[..<cut]))
            }
            if case .needMore = step { continue }
            return step
        }
        return parser.parse(whole)
    }
}

func splitPoint(_ bytes: [UInt8]) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes.prefix(64) { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return Int(h % UInt64(bytes.count + 1))
}

/// Count and FNV-1a hash: cheaper to build and compare than the bytes' text.
func bodyDigest(_ body: [UInt8]) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in body { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return "\(body.count):\(h)"
}

func isLowerToken(_ c: UInt8) -> Bool {
    HTTPSyntax.isTokenChar(c) && !(c >= 0x41 && c <= 0x5A)
}

func describe(_ step: HTTPRequestParser.Step) -> String {
    switch step {
    case .needMore: return "needMore"
    case .error(let e): return "error(\(e))"
    case .request(let r, let consumed):
        let fields = r.headers.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
        return "request(\(r.method.name) \(r.target) \(r.minorVersion) [\(fields)] \(bodyDigest(r.body)) \(consumed))"
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String, _ input: [UInt8]) {
    if !condition {
        fatalError(
            "parser invariant broken: \(message()) on \(String(decoding: input, as: UTF8.self).debugDescription)")
    }
}
