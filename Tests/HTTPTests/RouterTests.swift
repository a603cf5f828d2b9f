import HTTPTypes
import XCTest

@testable import HTTP

final class RouterTests: XCTestCase {
    func testLiteralParameterAndRestSegments() {
        XCTAssertNotNil(match("/api/v1/links/:id", "/api/v1/links/biq_lnk_1"))
        XCTAssertEqual(match("/api/v1/links/:id", "/api/v1/links/abc")?["id"], "abc")
        XCTAssertNil(match("/api/v1/links/:id", "/api/v1/links/"))
        XCTAssertNil(match("/api/v1/links/:id", "/api/v1/links/a/b"))
        XCTAssertEqual(match("/_biqli/assets/*path", "/_biqli/assets/a/b.css")?["path"], "a/b.css")
        XCTAssertNotNil(match("/", "/"))
        XCTAssertNil(match("/", "/x"))
        XCTAssertNil(match("/:key", "/"))
        XCTAssertEqual(match("/:key", "/invite")?["key"], "invite")
        XCTAssertEqual(match("/a/*rest", "/a")?["rest"], "")
        XCTAssertEqual(match("/*rest", "/")?["rest"], "")
        XCTAssertNil(match("/a/b/*rest", "/a"))
        XCTAssertNil(match("/a/:b", "/a/b/c"))
    }

    func testLiteralsMatchOnlyTheSameBytes() {
        XCTAssertNotNil(match("/healthz", "/healthz"))
        XCTAssertNil(match("/healthz", "/healthy"))  // same length, other bytes
        XCTAssertNil(match("/healthz", "/health"))
        XCTAssertNil(match("/healthz", "/healthzz"))
        XCTAssertNil(match("/m/handoff", "/m/handof"))
        XCTAssertNil(match("/é", "/e"))
    }

    func testTheFirstMatchingRouteAnswersInTheOrderAdded() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/a", name: "literal") { _, _, _ in .response(.text(200, "literal")) }
        routes.add([.get], "/:key", name: "key") { _, _, params in .response(.text(200, "key " + params["key"]!)) }
        routes.add([.get], "/b", name: "shadowed") { _, _, _ in .response(.text(200, "never")) }
        let router = routes.build()
        XCTAssertEqual(try answer(router, .get, "/a"), ["literal", "literal"])
        XCTAssertEqual(try answer(router, .get, "/b"), ["key", "key b"])
        XCTAssertEqual(try answer(router, .get, "/b?x=1"), ["key", "key b"])
    }

    func testAWrongMethodGets405WithAllowAndGetRoutesAnswerHead() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/page", name: "page") { _, _, _ in .response(.text(200, "page")) }
        routes.add(nil, "/any", name: "any") { request, _, _ in .response(.text(200, request.method.name)) }
        let router = routes.build()
        var context = try makeContext(router)
        guard case .response(let refused) = router.handle(HTTPRequest(method: .post, target: "/page"), &context)
        else { return XCTFail("deferred") }
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(refused.headers["allow"], "GET, HEAD")
        XCTAssertEqual(context.routeName, "page")
        XCTAssertEqual(try answer(router, .head, "/page"), ["page", "page"])
        XCTAssertEqual(try answer(router, .delete, "/any"), ["any", "DELETE"])
    }

    func testNoMatchGoesToNotFoundAndTheRouteNameSaysSo() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/a", name: "a") { _, _, _ in .response(.text(200, "a")) }
        routes.notFound = { request, _, _ in .response(.text(404, "none at " + request.path)) }
        XCTAssertEqual(try answer(routes.build(), .get, "/a/b"), ["not_found", "none at /a/b"])
        XCTAssertEqual(try answer(RouterBuilder().build(), .get, "/"), ["not_found", "not found\n"])
    }

    func testABuiltRouterKeepsItsRoutesWhenTheBuilderChangesLater() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/a", name: "a") { _, _, _ in .response(.text(200, "a")) }
        let first = routes.build()
        routes.add([.get], "/b", name: "b") { _, _, _ in .response(.text(200, "b")) }
        routes.notFound = { _, _, _ in .response(.text(404, "changed")) }
        XCTAssertEqual(try answer(first, .get, "/b"), ["not_found", "not found\n"])
        XCTAssertEqual(try answer(routes.build(), .get, "/b"), ["b", "b"])
    }

    // MARK: Helpers

    private func match(_ pattern: String, _ path: String) -> RouteParameters? {
        RoutePattern.match(pattern, path)
    }

    /// The route name and the body of `router`'s answer.
    private func answer(_ router: Router, _ method: HTTPMethod, _ target: String) throws -> [String] {
        var context = try makeContext(router)
        guard case .response(let response) = router.handle(HTTPRequest(method: method, target: target), &context)
        else {
            XCTFail("deferred")
            return []
        }
        return [context.routeName, String(decoding: response.body, as: UTF8.self)]
    }

    /// A request context on a loop that listens nowhere (the router never uses its loop).
    private func makeContext(_ router: Router) throws -> RequestContext {
        let loop = try EventLoop(
            index: 0, configuration: HTTPServerConfiguration(), handler: router, listeners: [],
            certificates: CertificateSet.load(directory: nil))
        return RequestContext(
            loop: loop, loopIndex: 0, peerAddress: "127.0.0.1", listener: .http, serverName: nil, fd: -1,
            generation: 0)
    }
}
