import HTTPMessages
import XCTest

@testable import HTTP

/// Requests the parser must accept, and what it makes of them.
final class ParserTests: XCTestCase {
    private typealias H = ParserHarness

    func testSimpleGetIsParsedWithLowerCasedNamesAndTrimmedValues() throws {
        let raw =
            "GET /invite?ref=bob HTTP/1.1\r\nHost: Go.Example.com\r\nUser-Agent:  curl/8.5.0 \t\r\nAccept: */*\r\n\r\n"
        let (r, consumed) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))))
        XCTAssertEqual(consumed, raw.utf8.count)
        XCTAssertEqual(r.method, .get)
        XCTAssertEqual(r.target, "/invite?ref=bob")
        XCTAssertEqual(r.path, "/invite")
        XCTAssertEqual(r.query, "ref=bob")
        XCTAssertEqual(r.minorVersion, 1)
        XCTAssertEqual(r.headers.fields.map(\.name), ["host", "user-agent", "accept"])
        XCTAssertEqual(r.headers["user-agent"], "curl/8.5.0")
        XCTAssertEqual(r.host, "go.example.com")
        XCTAssertEqual(r.body, [])
    }

    func testHeadAndUnknownMethodsAreCarried() throws {
        let head = try XCTUnwrap(H.request(H.oneShot(H.bytes("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n"))))
        XCTAssertEqual(head.0.method, .head)
        let other = try XCTUnwrap(H.request(H.oneShot(H.bytes("PROPFIND /x HTTP/1.1\r\nHost: a\r\n\r\n"))))
        XCTAssertEqual(other.0.method, .other("PROPFIND"))
        // Methods are case-sensitive: `get` is a different (unknown) method, answered by routes.
        let lower = try XCTUnwrap(H.request(H.oneShot(H.bytes("get / HTTP/1.1\r\nHost: a\r\n\r\n"))))
        XCTAssertEqual(lower.0.method, .other("get"))
        for (name, method) in [("POST", HTTPMethod.post), ("PUT", .put), ("PATCH", .patch), ("DELETE", .delete)] {
            let r = try XCTUnwrap(H.request(H.oneShot(H.bytes("\(name) / HTTP/1.1\r\nHost: a\r\n\r\n"))))
            XCTAssertEqual(r.0.method, method)
        }
    }

    func testPostWithContentLengthWaitsForTheWholeBody() throws {
        let json = #"{"app_instance_id":"01J","platform":"ios"}"#
        let raw =
            "POST /api/v1/track/open HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(json.utf8.count)\r\n\r\n\(json)"
        let bytes = H.bytes(raw)
        var parser = HTTPRequestParser()
        let headOnly = Array(bytes[..<(bytes.count - json.utf8.count)])
        XCTAssertEqual(H.describe(H.parse(headOnly, parser: &parser)), "needMore")
        XCTAssertTrue(parser.isReadingBody)
        XCTAssertTrue(parser.hasPartialRequest)
        XCTAssertEqual(H.describe(H.parse(Array(bytes.dropLast()), parser: &parser)), "needMore")
        let (r, consumed) = try XCTUnwrap(H.request(H.parse(bytes, parser: &parser)))
        XCTAssertEqual(consumed, bytes.count)
        XCTAssertEqual(r.method, .post)
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), json)
        XCTAssertFalse(parser.isReadingBody)
        XCTAssertFalse(parser.hasPartialRequest)
    }

    func testContentLengthZeroHasNoBody() throws {
        let (r, _) = try XCTUnwrap(
            H.request(H.oneShot(H.bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"))))
        XCTAssertEqual(r.body, [])
    }

    func testChunkedBodyWithExtensionsAndTrailersIsDechunked() throws {
        let raw =
            "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value;flag\r\nhello\r\n"
            + "6 ; q=\"quoted \\\" ;ext\"\r\n world\r\n"
            + "000\r\nChecksum: abc\r\nX-Trailer:  2 \r\n\r\n"
        let (r, consumed) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))))
        XCTAssertEqual(consumed, raw.utf8.count)
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "hello world")
        XCTAssertEqual(r.headers["transfer-encoding"], "chunked")
        XCTAssertNil(r.headers["checksum"], "trailers are dropped")
    }

    func testChunkedUpperCaseHexAndCaseInsensitiveCoding() throws {
        let raw = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"
        let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))))
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "0123456789")
    }

    func testTransferEncodingWithSurroundingWhitespaceIsChunked() throws {
        for value in ["chunked ", " chunked", "chunked\t", "\tCHUNKED  "] {
            let raw = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\(value)\r\n\r\n1\r\nx\r\n0\r\n\r\n"
            let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))), value)
            XCTAssertEqual(r.body, [0x78], value)
        }
    }

    func testPipelinedRequestsAreParsedOneAfterAnother() throws {
        let raw =
            "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nxyz"
            + "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"
            + "GET /d HTTP/1.0\r\n\r\n"
            + "GET /e HTTP/1.1\r\nHo"
        var input = H.bytes(raw)
        var parser = HTTPRequestParser()
        var targets: [String] = []
        var bodies: [String] = []
        while case .request(let r, let consumed) = H.parse(input, parser: &parser) {
            XCTAssertGreaterThan(consumed, 0)
            targets.append(r.target)
            bodies.append(String(decoding: r.body, as: UTF8.self))
            input.removeFirst(consumed)
        }
        XCTAssertEqual(targets, ["/a", "/b", "/c", "/d"])
        XCTAssertEqual(bodies, ["", "xyz", "ok", ""])
        XCTAssertEqual(input, H.bytes("GET /e HTTP/1.1\r\nHo"))
        XCTAssertTrue(parser.hasPartialRequest)
        input += H.bytes("st: a\r\n\r\n")
        let (last, _) = try XCTUnwrap(H.request(H.parse(input, parser: &parser)))
        XCTAssertEqual(last.target, "/e")
    }

    func testAHigherMinorVersionOfHTTP1IsReadAsHTTP11() throws {
        // RFC 9110 section 6.2: processed as the highest minor version the server implements.
        for version in ["1.2", "1.9"] {
            let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes("GET / HTTP/\(version)\r\nHost: a\r\n\r\n"))))
            XCTAssertEqual(r.minorVersion, 1, version)
            XCTAssertTrue(r.keepAlive, version)
        }
    }

    func testHTTP10NeedsNoHost() throws {
        let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes("GET / HTTP/1.0\r\n\r\n"))))
        XCTAssertEqual(r.minorVersion, 0)
        XCTAssertNil(r.host)
    }

    func testAbsoluteFormTargetBecomesOriginFormAndItsAuthorityReplacesHost() throws {
        let raw = "GET http://Go.Example.com:8080/x?y=1 HTTP/1.1\r\nHost: other.example\r\nAccept: */*\r\n\r\n"
        let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))))
        XCTAssertEqual(r.target, "/x?y=1")
        XCTAssertEqual(r.path, "/x")
        XCTAssertEqual(r.query, "y=1")
        XCTAssertEqual(r.headers["host"], "Go.Example.com:8080")
        XCTAssertEqual(r.host, "go.example.com")
        XCTAssertEqual(r.headers.values("host").count, 1)
        let https = try XCTUnwrap(H.request(H.oneShot(H.bytes("GET HTTPS://a.example HTTP/1.0\r\n\r\n"))))
        XCTAssertEqual(https.0.host, "a.example")
        XCTAssertEqual(https.0.target, "/")
        let query = try XCTUnwrap(H.request(H.oneShot(H.bytes("GET http://a.example?k=v HTTP/1.0\r\n\r\n"))))
        XCTAssertEqual(query.0.target, "/?k=v")
    }

    func testOptionsAsteriskForm() throws {
        let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n"))))
        XCTAssertEqual(r.method, .options)
        XCTAssertEqual(r.target, "*")
    }

    func testHostForms() throws {
        for host in [
            "a", "go.example.com", "go.example.com.", "127.0.0.1:8443", "[::1]", "[::1]:443", "x-y_z~1:", "H:1",
        ] {
            let step = H.oneShot(H.bytes("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n"))
            XCTAssertNotNil(H.request(step), host)
        }
    }

    func testLeadingEmptyLinesAreIgnoredAndConsumed() throws {
        let raw = "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"
        let (r, consumed) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))))
        XCTAssertEqual(r.target, "/")
        XCTAssertEqual(consumed, raw.utf8.count)
    }

    func testFieldValuesKeepInnerWhitespaceAndObsText() throws {
        let raw: [UInt8] =
            H.bytes("GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\nX-Mixed: a \t b\r\nX-Latin: caf") + [0xC3, 0xA9]
            + H.bytes("\r\nX_Under.Score: 1\r\n\r\n")
        let (r, _) = try XCTUnwrap(H.request(H.oneShot(raw)))
        XCTAssertEqual(r.headers["x-empty"], "")
        XCTAssertEqual(r.headers["x-mixed"], "a \t b")
        XCTAssertEqual(r.headers["x-latin"], "café")
        XCTAssertEqual(r.headers["x_under.score"], "1")
    }

    func testRepeatedOrdinaryFieldsAreKeptInOrder() throws {
        let raw = "GET / HTTP/1.1\r\nHost: a\r\nAccept: x\r\nCookie: a=1\r\naccept: y\r\n\r\n"
        let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))))
        XCTAssertEqual(r.headers.values("accept"), ["x", "y"])
    }

    func testKeepAliveFollowsVersionAndConnectionHeader() throws {
        let cases: [(String, Bool)] = [
            ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive, Close\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\n\r\n", true),
            ("GET / HTTP/1.0\r\n\r\n", false),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
            ("GET / HTTP/1.0\r\nConnection: close\r\n\r\n", false),
        ]
        for (raw, expected) in cases {
            let (r, _) = try XCTUnwrap(H.request(H.oneShot(H.bytes(raw))), raw)
            XCTAssertEqual(r.keepAlive, expected, raw)
        }
    }

    func testExpectContinueIsReportedUntilTheBodyStarts() throws {
        let head = H.bytes("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n")
        var parser = HTTPRequestParser()
        XCTAssertEqual(H.describe(H.parse(head, parser: &parser)), "needMore")
        XCTAssertTrue(parser.expectsContinue)
        XCTAssertEqual(H.describe(H.parse(head + [0x61], parser: &parser)), "needMore")
        XCTAssertFalse(parser.expectsContinue)
        XCTAssertNotNil(H.request(H.parse(head + [0x61, 0x62], parser: &parser)))
        XCTAssertFalse(parser.expectsContinue)
    }

    func testExpectContinueIsIgnoredWithoutBodyOrInHTTP10() {
        var parser = HTTPRequestParser()
        XCTAssertNotNil(
            H.request(H.parse(H.bytes("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n"), parser: &parser)))
        XCTAssertFalse(parser.expectsContinue)
        let old = H.bytes("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n")
        XCTAssertEqual(H.describe(H.parse(old, parser: &parser)), "needMore")
        XCTAssertTrue(parser.isReadingBody)
        XCTAssertFalse(parser.expectsContinue)
    }

    func testChunkedExpectContinue() {
        var parser = HTTPRequestParser()
        let head = H.bytes("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n")
        XCTAssertEqual(H.describe(H.parse(head, parser: &parser)), "needMore")
        XCTAssertTrue(parser.expectsContinue)
        XCTAssertTrue(parser.isReadingBody)
    }

    func testPartialRequestFlags() {
        var parser = HTTPRequestParser()
        XCTAssertFalse(parser.hasPartialRequest)
        XCTAssertEqual(H.describe(H.parse([], parser: &parser)), "needMore")
        XCTAssertFalse(parser.hasPartialRequest)
        XCTAssertEqual(H.describe(H.parse(H.bytes("G"), parser: &parser)), "needMore")
        XCTAssertTrue(parser.hasPartialRequest)
        XCTAssertFalse(parser.isReadingBody)
        parser.reset()
        XCTAssertFalse(parser.hasPartialRequest)
        XCTAssertEqual(H.describe(H.parse(H.bytes("\r\n"), parser: &parser)), "needMore")
        XCTAssertTrue(parser.hasPartialRequest, "an empty line starts the head deadline too")
    }

    func testResetDiscardsAPartialRequest() throws {
        var parser = HTTPRequestParser()
        XCTAssertEqual(H.describe(H.parse(H.bytes("POST /x HTTP/1.1\r\nContent-Le"), parser: &parser)), "needMore")
        parser.reset()
        let (r, _) = try XCTUnwrap(H.request(H.parse(H.bytes("GET /y HTTP/1.1\r\nHost: a\r\n\r\n"), parser: &parser)))
        XCTAssertEqual(r.target, "/y")
        XCTAssertEqual(r.headers.count, 1)
    }

    func testAfterAnErrorTheParserKeepsAnsweringTheError() {
        var parser = HTTPRequestParser()
        let bad = H.bytes("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n")
        XCTAssertEqual(H.status(H.parse(bad, parser: &parser)), 400)
        XCTAssertEqual(H.status(H.parse(bad + H.bytes("more"), parser: &parser)), 400)
    }

    func testShorterInputThanBeforeStartsOver() throws {
        var parser = HTTPRequestParser()
        XCTAssertEqual(H.describe(H.parse(H.bytes("GET /a HTTP/1.1\r\nHost: a\r\n"), parser: &parser)), "needMore")
        let (r, _) = try XCTUnwrap(H.request(H.parse(H.bytes("GET /b HTTP/1.0\r\n\r\n"), parser: &parser)))
        XCTAssertEqual(r.target, "/b")
    }

    func testHeaderArrayAndStateAreReusedAcrossRequests() throws {
        var parser = HTTPRequestParser()
        for i in 0..<50 {
            let raw = "GET /\(i) HTTP/1.1\r\nHost: a\r\nX-I: \(i)\r\n\r\n"
            let (r, _) = try XCTUnwrap(H.request(H.parse(H.bytes(raw), parser: &parser)))
            XCTAssertEqual(r.target, "/\(i)")
            XCTAssertEqual(r.headers.fields.map(\.value), ["a", "\(i)"])
        }
    }

    func testBodyExactlyAtTheLimitIsAccepted() throws {
        let limits = HTTPLimits(maxBodyBytes: 4)
        let cl = H.oneShot(H.bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd"), limits: limits)
        XCTAssertEqual(try XCTUnwrap(H.request(cl)).0.body.count, 4)
        let chunked = H.bytes(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n2\r\ncd\r\n0\r\n\r\n")
        XCTAssertEqual(try XCTUnwrap(H.request(H.oneShot(chunked, limits: limits))).0.body.count, 4)
    }

    func testHeadExactlyAtTheLimitsIsAccepted() throws {
        let line = "GET /" + String(repeating: "a", count: 20) + " HTTP/1.1"  // 34 bytes
        let head = line + "\r\nHost: a\r\n\r\n"
        let limits = HTTPLimits(maxRequestLineBytes: 34, maxHeaderBytes: head.utf8.count, maxHeaderCount: 1)
        XCTAssertNotNil(H.request(H.oneShot(H.bytes(head), limits: limits)))
        XCTAssertNotNil(H.request(H.byteByByte(H.bytes(head), limits: limits)))
    }
}
