import HTTPMessages
import XCTest

@testable import HTTP

/// Feeding helpers shared by the parser tests. Every call copies the input into a fresh array,
/// so the parser is also checked not to keep pointers into the caller's buffer.
enum ParserHarness {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    static func parse(_ input: [UInt8], parser: inout HTTPRequestParser) -> HTTPRequestParser.Step {
        let copy = Array(input)
        return copy.withUnsafeBytes { parser.parse($0) }
    }

    /// One call with the whole input.
    static func oneShot(_ input: [UInt8], limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Step {
        var parser = HTTPRequestParser(limits: limits)
        return parse(input, parser: &parser)
    }

    /// Growing prefixes ending at each of `cuts` (then the whole input), as a connection sees
    /// them; stops at the first answer that is not `.needMore`.
    static func fed(_ input: [UInt8], cuts: [Int], limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Step {
        var parser = HTTPRequestParser(limits: limits)
        for cut in cuts where cut <= input.count {
            let step = parse(Array(input[..<cut]), parser: &parser)
            if case .needMore = step { continue }
            return step
        }
        return parse(input, parser: &parser)
    }

    static func byteByByte(_ input: [UInt8], limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Step {
        fed(input, cuts: Array(0...input.count), limits: limits)
    }

    /// A canonical text for a step, so results can be compared and printed.
    static func describe(_ step: HTTPRequestParser.Step) -> String {
        switch step {
        case .needMore:
            return "needMore"
        case .error(let e):
            return "error(\(e.status))"
        case .request(let r, let consumed):
            let fields = r.headers.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
            return
                "request(\(r.method.name) \(r.target) 1.\(r.minorVersion) [\(fields)] body=\(r.body) consumed=\(consumed))"
        }
    }

    /// The request of a step, or a test failure.
    static func request(
        _ step: HTTPRequestParser.Step, file: StaticString = #filePath, line: UInt = #line
    ) -> (HTTPRequest, Int)? {
        guard case .request(let r, let consumed) = step else {
            XCTFail("expected a request, got \(describe(step))", file: file, line: line)
            return nil
        }
        return (r, consumed)
    }

    static func status(_ step: HTTPRequestParser.Step) -> Int? {
        if case .error(let e) = step { return e.status }
        return nil
    }
}
