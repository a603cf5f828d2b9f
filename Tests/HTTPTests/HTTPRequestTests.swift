import HTTPMessages
import XCTest

@testable import HTTP

final class HTTPRequestTests: XCTestCase {
    func testHostnameFromTheHostHeader() {
        let table: [(String, String)] = [
            ("go.example.com", "go.example.com"),
            ("Go.Example.COM:8443", "go.example.com"),
            ("go.example.com.", "go.example.com"),
            ("go.example.com.:443", "go.example.com"),
            ("[::1]:8080", "::1"),
            ("[2001:DB8::1]", "2001:db8::1"),
            ("127.0.0.1:80", "127.0.0.1"),
            ("", ""),
            ("GO.example.com", "go.example.com"),
            ("x", "x"),
            (".", ""),
            ("go.example.com:", "go.example.com"),
        ]
        for (header, host) in table {
            XCTAssertEqual(HTTPRequest.hostname(fromHostHeader: header), host, header)
        }
    }

    func testPathAndQuerySplitAtTheFirstQuestionMark() {
        let r = HTTPRequest(method: .get, target: "/invite?ref=a?b&x=1")
        XCTAssertEqual(r.path, "/invite")
        XCTAssertEqual(r.query, "ref=a?b&x=1")
        XCTAssertNil(HTTPRequest(method: .get, target: "/x").query)
        XCTAssertEqual(HTTPRequest(method: .get, target: "/é?q=ü&r").query, "q=ü&r")
        XCTAssertEqual(HTTPRequest(method: .get, target: "/x?").query, "")
    }

    func testHeaderNamesCompareCaseInsensitively() {
        XCTAssertTrue(HTTPHeaders.namesEqual("Content-Length", "content-length"))
        XCTAssertFalse(HTTPHeaders.namesEqual("content-length", "content-lengths"))
        XCTAssertFalse(HTTPHeaders.namesEqual("a-b", "a_b"))
        var h = HTTPHeaders()
        h.add("X-Forwarded-For", "1.2.3.4")
        XCTAssertEqual(h["x-forwarded-for"], "1.2.3.4")
    }
}
