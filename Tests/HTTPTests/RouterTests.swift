import Core
import HTTPMessages
import XCTest

@testable import HTTP

final class RouterTests: XCTestCase {
    func testLiteralParameterAndRestSegments() {
        XCTAssertNotNil(match("/api/v1/links/:id", "/api/v1/links/biq_lnk_1"))
        XCTAssertEqual(match("/api/v1/links/:id", "/api/v1/links/abc")?["id"], "abc")
        XCTAssertEqual(match("/api/v1/links/{id}", "/api/v1/links/abc")?["id"], "abc")
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
        XCTAssertNotNil(match("/console/", "/console/"))
        XCTAssertNil(match("/console/", "/console"))
    }

    func testLiteralsMatchOnlyTheSameBytes() {
        XCTAssertNotNil(match("/healthz", "/healthz"))
        XCTAssertNil(match("/healthz", "/healthy"))  // same length, other bytes
        XCTAssertNil(match("/healthz", "/health"))
        XCTAssertNil(match("/healthz", "/healthzz"))
        XCTAssertNil(match("/m/handoff", "/m/handof"))
        XCTAssertNil(match("/é", "/e"))
    }

    func testTheMostSpecificRouteAnswersWhateverTheOrderTheyWereAdded() throws {
        let routes: [(String, String)] = [
            ("/:key", "key"), ("/a", "a"), ("/b/*rest", "b rest"), ("/b/c", "b c"), ("/b/:x/d", "b x d"),
            ("/", "root"),
        ]
        let expected = [
            "/a": "a", "/z": "key", "/b": "b rest", "/b/c": "b c", "/b/c/d": "b x d", "/b/q/d": "b x d",
            "/b/q/e": "b rest", "/": "root", "/a/b": "not_found",
        ]
        for order in [routes, routes.reversed(), routes.shuffled(), routes.shuffled()] {
            let builder = RouterBuilder()
            for (pattern, name) in order {
                builder.add([.get], pattern, name: name) { _, _, _ in .response(.text(200, name)) }
            }
            let router = builder.build()
            for (path, name) in expected {
                XCTAssertEqual(answer(router, .get, path).route, name, "\(path) with \(order.map(\.0))")
            }
        }
    }

    func testAWrongMethodGets405WithAllowAndGetRoutesAnswerHead() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/page", name: "page") { _, _, _ in .response(.text(200, "page")) }
        routes.add(nil, "/any", name: "any") { request, _, _ in .response(.text(200, request.method.name)) }
        let router = routes.build()
        let refused = answer(router, .post, "/page")
        XCTAssertEqual(refused.response?.status, 405)
        XCTAssertEqual(refused.response?.headers["allow"], "GET, HEAD")
        XCTAssertEqual(refused.route, "page")
        XCTAssertEqual(body(answer(router, .head, "/page")), "page")
        XCTAssertEqual(body(answer(router, .delete, "/any")), "DELETE")
    }

    func testTheRoutesOfOnePatternShareItAndAllowListsTheirMethodsInTheOrderAdded() {
        let routes = RouterBuilder()
        for method in [HTTPMethod.get, .patch, .delete] {
            routes.add([method], "/links/:id", name: "links " + method.name) { _, _, params in
                .response(.text(200, method.name + " " + params["id"]!))
            }
        }
        let router = routes.build()
        XCTAssertEqual(body(answer(router, .patch, "/links/7")), "PATCH 7")
        XCTAssertEqual(answer(router, .delete, "/links/7").route, "links DELETE")
        let refused = answer(router, .put, "/links/7")
        XCTAssertEqual(refused.response?.headers["allow"], "GET, PATCH, DELETE, HEAD")
        XCTAssertEqual(refused.route, "links GET", "a 405 is named after the pattern's first route")
    }

    func testTwoRoutesThatCanTakeTheSameRequestWithNeitherMoreSpecificAreRefused() {
        XCTAssertEqual(
            conflict([([.get], "/:a/b"), ([.get], "/a/:b")]),
            RouteConflict(first: "GET /:a/b", second: "GET /a/:b", path: "/a/b"))
        XCTAssertNotNil(conflict([([.get], "/x"), ([.get], "/x")]), "the same route twice")
        XCTAssertNotNil(conflict([([.get], "/x"), (nil, "/x")]), "a route of every method takes GET too")
        XCTAssertNotNil(conflict([([.get], "/x"), ([.head], "/x")]), "a GET route takes HEAD")
        XCTAssertNotNil(conflict([([.get], "/l/:id"), ([.post], "/l/:name")]), "one path, two names")
        XCTAssertNotNil(conflict([([.get], "/a/*rest"), ([.get], "/:x/b/*rest")]))
        XCTAssertNotNil(conflict([(nil, "/*rest")]), "the table's own 404 is a rest at the root")
    }

    func testNestedPatternsAndDisjointMethodsAreAccepted() {
        XCTAssertNil(conflict([([.get], "/a/*rest"), ([.get], "/a/b"), ([.get], "/a/:x/c"), ([.get], "/:key")]))
        XCTAssertNil(conflict([([.get], "/l/:id"), ([.post, .patch], "/l/:id"), ([.get], "/l/new")]))
        XCTAssertNil(conflict([([.get], "/"), ([.get], "/:key"), ([.get], "/a/"), ([.get], "/a")]))
        XCTAssertNil(conflict([([.get], "/a/b"), ([.get], "/a/c")]), "different literals never meet")
    }

    func testPatternsKnowWhetherTheyMeetAndWhichIsMoreSpecific() {
        let p = RoutePattern.init
        XCTAssertTrue(p("/a/:b", false).overlaps(p("/:a/b", false)))
        XCTAssertFalse(p("/a/:b", false).isSubset(of: p("/:a/b", false)))
        XCTAssertTrue(p("/a/b", false).isStrictlyMoreSpecific(than: p("/a/*r", false)))
        XCTAssertTrue(p("/a", false).isStrictlyMoreSpecific(than: p("/a/*r", false)), "a rest takes no segment too")
        XCTAssertFalse(p("/a/*r", false).isSubset(of: p("/a/:b/*r", false)), "the second needs one more segment")
        XCTAssertTrue(p("/a/:b/*r", false).isStrictlyMoreSpecific(than: p("/a/*r", false)))
        XCTAssertFalse(p("/a", false).overlaps(p("/a/:b", false)))
        XCTAssertFalse(p("/", false).overlaps(p("/:key", false)), "a parameter is never empty")
        XCTAssertTrue(p("/l/:id", true).isStrictlyMoreSpecific(than: p("/l/:id", false)))
        XCTAssertFalse(p("/%zz", false).overlaps(p("/:id", true)), "a decoding parameter takes only decodable text")
    }

    func testAGroupAddsItsPrefixAndRunsItsMiddlewareOutermostFirst() {
        let routes = RouterBuilder()
        let api = routes.group("/api", middleware: [Tag("outer")]).group("/v1", middleware: [Tag("inner")])
        api.add([.get], "/items/:id", name: "item") { _, context, params in
            .response(.text(200, (context.requestId ?? "") + "|" + params["id"]!))
        }
        routes.add([.get], "/items/:id", name: "bare") { _, context, _ in
            .response(.text(200, context.requestId ?? "none"))
        }
        let router = routes.build()
        XCTAssertEqual(body(answer(router, .get, "/api/v1/items/3")), "outer inner|3")
        XCTAssertEqual(body(answer(router, .get, "/items/3")), "none", "no middleware outside the group")
        XCTAssertEqual(router.routes.filter { !$0.isFallback }.map(\.pattern), ["/api/v1/items/:id", "/items/:id"])
    }

    func testAGroupThatAnswersForItselfGivesItsOwn404And405InsideItsMiddleware() {
        let routes = RouterBuilder()
        let api = routes.group("/api", middleware: [Tag("id")]).answering(
            name: "api",
            notFound: { request, context, _ in .response(.text(404, "api 404 " + (context.requestId ?? ""))) },
            methodNotAllowed: { _, context, allowed in
                .response(.text(405, Router.allowHeader(allowed) + " " + (context.requestId ?? "")))
            })
        api.group(middleware: [Refuse()]).add([.get, .post], "/items", name: "items") { _, _, _ in
            .response(.text(200, "items"))
        }
        routes.add([.get], "/:key", name: "key") { _, _, _ in .response(.text(200, "key")) }
        let router = routes.build()
        XCTAssertEqual(body(answer(router, .get, "/api/nothing/here")), "api 404 id")
        XCTAssertEqual(answer(router, .get, "/api").route, "api", "the prefix itself is the group's")
        XCTAssertEqual(
            body(answer(router, .delete, "/api/items")), "GET, POST, HEAD id", "the inner middleware stays out")
        XCTAssertEqual(answer(router, .delete, "/api/items").route, "api")
        XCTAssertEqual(answer(router, .get, "/api/items").response?.status, 403)
        XCTAssertEqual(answer(router, .get, "/other/path").route, "not_found")
        XCTAssertEqual(body(answer(router, .get, "/api2")), "key")
    }

    func testADecodingGroupTakesOnlyPercentEncodedUTF8AndHandsItDecoded() {
        let routes = RouterBuilder()
        let api = routes.group("/api").decodingParameters().answering(
            name: "api", notFound: { _, _, _ in .response(.text(404, "none")) },
            methodNotAllowed: { _, _, _ in .response(.text(405, "no")) })
        api.add([.get], "/c/:id", name: "c") { _, _, params in .response(.text(200, params["id"]!)) }
        let router = routes.build()
        XCTAssertEqual(body(answer(router, .get, "/api/c/a%2Fb%20c+d")), "a/b c+d")
        XCTAssertEqual(body(answer(router, .get, "/api/c/%zz")), "none")
        XCTAssertEqual(body(answer(router, .post, "/api/c/%C3")), "none", "not UTF-8: no route, so no 405")
        XCTAssertEqual(body(answer(router, .post, "/api/c/%C3%A9")), "no")
    }

    func testASegmenterDecidesWhatRoutesMatchAndThePathsItRefuses() {
        let routes = RouterBuilder()
        routes.segmenter = { path in
            path.contains("!")
                ? nil : RoutePattern.segments(path).filter { !$0.isEmpty }.map { Substring($0.lowercased()) }
        }
        routes.unsegmentable = { _, _, _ in .response(.text(400, "refused")) }
        routes.unsegmentableName = "refused"
        routes.add([.get], "/a/b", name: "ab") { _, _, _ in .response(.text(200, "ab")) }
        let router = routes.build()
        XCTAssertEqual(body(answer(router, .get, "/A//B/")), "ab")
        XCTAssertEqual(answer(router, .get, "/a!b").route, "refused")
    }

    func testNoMatchGoesToNotFoundAndTheRouteNameSaysSo() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/a", name: "a") { _, _, _ in .response(.text(200, "a")) }
        routes.notFound = { request, _, _ in .response(.text(404, "none at " + request.path)) }
        let found = answer(routes.build(), .get, "/a/b")
        XCTAssertEqual([found.route, body(found)], ["not_found", "none at /a/b"])
        XCTAssertEqual(body(answer(RouterBuilder().build(), .get, "/")), "not found\n")
        XCTAssertEqual(answer(routes.build(), .options, "*").route, "not_found", "OPTIONS * is the path /")
    }

    func testABuiltRouterKeepsItsRoutesWhenTheBuilderChangesLater() throws {
        let routes = RouterBuilder()
        routes.add([.get], "/a", name: "a") { _, _, _ in .response(.text(200, "a")) }
        let first = routes.build()
        routes.add([.get], "/b", name: "b") { _, _, _ in .response(.text(200, "b")) }
        routes.notFound = { _, _, _ in .response(.text(404, "changed")) }
        XCTAssertEqual(body(answer(first, .get, "/b")), "not found\n")
        XCTAssertEqual(body(answer(routes.build(), .get, "/b")), "b")
    }

    func testADeferredAnswerArrivesThroughTheResponder() {
        let routes = RouterBuilder()
        routes.add([.post], "/later", name: "later") { _, context, _ in
            let responder = context.deferResponse()
            OSThread.start(name: "later") { responder.respond(.text(201, "done")) }.detach()
            return .deferred
        }
        let got = answer(routes.build(), .post, "/later")
        XCTAssertEqual(got.response?.status, 201)
    }

    func testARequestsLogLinesCarryItsRouteAndTheIdItsMiddlewareSet() throws {
        let routes = RouterBuilder()
        routes.group("/api", middleware: [Tag("req-1")]).add([.get], "/items", name: "items") { _, context, _ in
            context.logger.error("item failed", [("detail", .string("disk full"))])
            return .response(.text(500, "failed"))
        }
        let sink = BufferLogSink()
        _ = InProcessRequest.answer(
            routes.build(), HTTPRequest(method: .get, target: "/api/items"),
            logger: Logger(level: .info, node: "edge-a", sink: sink))
        let line = try XCTUnwrap(sink.lines.first ?? nil)
        XCTAssertEqual(line.objectValue?.map(\.0), ["ts", "level", "msg", "node", "route", "requestId", "detail"])
        XCTAssertEqual(line["route"], .string("items"))
        XCTAssertEqual(line["requestId"], .string("req-1"))
    }

    // MARK: Helpers

    /// Sets the request id to its tag, or adds the tag to it.
    private struct Tag: RouteMiddleware {
        let tag: String
        init(_ tag: String) { self.tag = tag }
        func respond(
            to request: HTTPRequest, _ context: inout RequestContext, _ parameters: RouteParameters,
            next: Router.Handler
        ) -> HTTPHandlerResult {
            context.requestId = context.requestId.map { $0 + " " + tag } ?? tag
            return next(request, &context, parameters)
        }
    }

    private struct Refuse: RouteMiddleware {
        func respond(
            to request: HTTPRequest, _ context: inout RequestContext, _ parameters: RouteParameters,
            next: Router.Handler
        ) -> HTTPHandlerResult {
            .response(.text(403, "refused"))
        }
    }

    private func match(_ pattern: String, _ path: String) -> RouteParameters? {
        RoutePattern.match(pattern, path)
    }

    private func conflict(_ routes: [([HTTPMethod]?, String)]) -> RouteConflict? {
        let builder = RouterBuilder()
        for (methods, pattern) in routes {
            builder.add(methods, pattern, name: pattern) { _, _, _ in .response(.text(200, "")) }
        }
        do {
            try builder.validate()
            return nil
        } catch {
            return error
        }
    }

    private func answer(_ router: Router, _ method: HTTPMethod, _ target: String) -> InProcessRequest.Answer {
        InProcessRequest.answer(router, HTTPRequest(method: method, target: target))
    }

    private func body(_ answer: InProcessRequest.Answer) -> String {
        String(decoding: answer.response?.body ?? [], as: UTF8.self)
    }
}
