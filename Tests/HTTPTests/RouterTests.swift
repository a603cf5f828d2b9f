import XCTest

@testable import HTTP

final class RouterTests: XCTestCase {
    func testLiteralParameterAndRestSegments() {
        let r = Router()
        XCTAssertNotNil(match(r, "/api/v1/links/:id", "/api/v1/links/biq_lnk_1"))
        XCTAssertEqual(match(r, "/api/v1/links/:id", "/api/v1/links/abc")?["id"], "abc")
        XCTAssertNil(match(r, "/api/v1/links/:id", "/api/v1/links/"))
        XCTAssertNil(match(r, "/api/v1/links/:id", "/api/v1/links/a/b"))
        XCTAssertEqual(match(r, "/_biqli/assets/*path", "/_biqli/assets/a/b.css")?["path"], "a/b.css")
        XCTAssertNotNil(match(r, "/", "/"))
        XCTAssertNil(match(r, "/", "/x"))
        XCTAssertNil(match(r, "/:key", "/"))
        XCTAssertEqual(match(r, "/:key", "/invite")?["key"], "invite")
        XCTAssertEqual(match(r, "/a/*rest", "/a")?["rest"], "")
        XCTAssertEqual(match(r, "/*rest", "/")?["rest"], "")
        XCTAssertNil(match(r, "/a/b/*rest", "/a"))
        XCTAssertNil(match(r, "/a/:b", "/a/b/c"))
    }

    func testLiteralsMatchOnlyTheSameBytes() {
        let r = Router()
        XCTAssertNotNil(match(r, "/healthz", "/healthz"))
        XCTAssertNil(match(r, "/healthz", "/healthy"))  // same length, other bytes
        XCTAssertNil(match(r, "/healthz", "/health"))
        XCTAssertNil(match(r, "/healthz", "/healthzz"))
        XCTAssertNil(match(r, "/m/handoff", "/m/handof"))
        XCTAssertNil(match(r, "/é", "/e"))
    }

    private func match(_ router: Router, _ pattern: String, _ path: String) -> RouteParameters? {
        router.routeMatch(pattern: pattern, path: path)
    }
}
