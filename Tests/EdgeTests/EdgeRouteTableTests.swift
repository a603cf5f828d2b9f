import Certificates
import Foundation
import HTTP
import HTTPMessages
import Management
import XCTest

@testable import Edge

/// The edge's whole route table, as `serve` builds it (the console's too), checked by the
/// router's conflict rule: no two routes can take one request unless one is strictly more
/// specific, so the order `EdgeRoutes` adds them in decides nothing.
final class EdgeRouteTableTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = NSTemporaryDirectory() + "edge-routes-" + UUID().uuidString
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func application() throws -> EdgeApplication {
        let configuration = try EdgeConfiguration.load(
            file: nil,
            environment: [
                "BIQLI_EDGE_DATA_DIR": directory, "BIQLI_EDGE_HTTP_ADDR": "127.0.0.1:0",
                "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0", "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0",
                "BIQLI_EDGE_LOOPS": "1", "BIQLI_EDGE_LOG": "error",
            ])
        return try EdgeApplication(configuration: configuration, demo: false)
    }

    func testTheEdgesWholeTableHasNoConflictWithACMEOnOrOff() throws {
        let app = try application()
        for acme in [false, true] {
            let routes = RouterBuilder()
            if acme { ACMEChallengeRoutes.install(on: routes, board: ChallengeBoard()) }
            EdgeRoutes.install(on: routes, services: app.services)
            XCTAssertNoThrow(try routes.validate(), "ACME \(acme)")
            XCTAssertEqual(routes.routes.filter { $0.isFallback }.map(\.pattern).last, "/*", "the table's own 404")
        }
    }

    func testEachPathGoesToItsRouteWhateverTheOrderOfAdding() throws {
        let app = try application()
        let routes = RouterBuilder()
        ACMEChallengeRoutes.install(on: routes, board: ChallengeBoard())
        EdgeRoutes.install(on: routes, services: app.services)
        let router = routes.build()
        let expected: [(HTTPMethod, String, String)] = [
            (.get, "/.well-known/acme-challenge/abc", "acme_challenge"),
            (.get, "/.well-known/apple-app-site-association", "aasa"),
            (.get, "/apple-app-site-association", "aasa"),
            (.get, "/.well-known/assetlinks.json", "assetlinks"),
            (.get, "/.well-known/jwks.json", "jwks"),
            (.post, "/api/v1/track/open", "track_open"),
            (.post, "/api/v1/track/click", "track_click"),
            (.get, "/healthz", "healthz"),
            (.get, "/m/handoff", "handoff_landing"),
            (.get, "/abc", "visit"),
            (.post, "/abc", "visit"),
            (.get, "/a/b", "not_found"),
        ]
        for (method, path, name) in expected {
            XCTAssertEqual(route(router, method, path), name, "\(method.name) \(path)")
        }
    }

    func testEveryWorkspaceOperationIsARouteNamedByItsOperationId() throws {
        let app = try application()
        let routes = RouterBuilder()
        EdgeRoutes.install(on: routes, services: app.services)
        let table = routes.routes
        let operations = ManagementAPI.allOperations
        XCTAssertFalse(operations.isEmpty)
        for operation in operations {
            let found = table.first {
                $0.pattern == operation.pattern && $0.methods?.contains(operation.method) == true
            }
            if operation.isEdge {
                // `track.click`: the edge's own route takes every method there.
                XCTAssertEqual(table.first { $0.pattern == operation.pattern }?.name, "track_click")
                XCTAssertNil(found, "\(operation.operationId) is the edge's")
            } else {
                XCTAssertEqual(found?.name, operation.operationId, "\(operation.method.name) \(operation.pattern)")
            }
        }
        // Nothing else below /api/v1 but the resolver's, the click's and the group's own answer.
        let others = table.filter {
            $0.pattern.hasPrefix("/api/v1") && !operations.map(\.operationId).contains($0.name)
        }
        XCTAssertEqual(others.map(\.name).sorted(), ["management", "track_click", "track_open"])
    }

    func testTheWorkspaceAPIsOwn404And405CarryTheEnvelopeAndTheRequestId() throws {
        let app = try application()
        let routes = RouterBuilder()
        EdgeRoutes.install(on: routes, services: app.services)
        let router = routes.build()
        let caller = HTTPHeaders([("x-biq-request-id", "caller-id-1")])
        for (method, path, status, allow) in [
            (HTTPMethod.get, "/api/v1/nowhere", 404, nil), (.get, "/api/v1", 404, nil),
            (.get, "/api/v1/links/%C3", 404, nil), (.put, "/api/v1/links", 405, "GET, POST, HEAD"),
            (.head, "/api/v1/domains/x", 401, nil), (.post, "/api/v1/domains/x", 405, "GET, PATCH, DELETE, HEAD"),
        ] as [(HTTPMethod, String, Int, String?)] {
            let got = InProcessRequest.answer(router, HTTPRequest(method: method, target: path, headers: caller))
            XCTAssertEqual(got.response?.status, status, "\(method.name) \(path)")
            XCTAssertEqual(got.response?.headers["allow"], allow, "\(method.name) \(path)")
            XCTAssertEqual(got.response?.headers["x-biq-request-id"], "caller-id-1", "\(method.name) \(path)")
            XCTAssertEqual(got.response?.headers["content-type"], "application/json")
            XCTAssertEqual(got.route, status == 401 ? "domains.get" : "management")
        }
        let refused = InProcessRequest.answer(
            router,
            HTTPRequest(method: .get, target: "/api/v1/links", headers: HTTPHeaders([("x-biq-request-id", "bad id")])))
        XCTAssertEqual(refused.response?.status, 400, "the id's rule, before the key")
        XCTAssertEqual(refused.route, "links.list")
        XCTAssertTrue(refused.response?.headers["x-biq-request-id"]?.hasPrefix("req_") == true)
    }

    func testTheConsolesTableAnswersItsPathsAsTheConsoleDid() throws {
        let app = try application()
        let router = ConsoleRoutes.router(
            console: ConsoleRoutes.makeConsole(services: app.services), services: app.services)
        for (method, path, status, allow) in [
            (HTTPMethod.get, "/console", 308, nil), (.post, "/console", 308, nil), (.get, "/console/", 303, nil),
            (.get, "/console/%6Cinks/", 303, nil), (.get, "/console//", 400, nil), (.get, "/console/a//b", 400, nil),
            (.get, "/console/%zz", 400, nil), (.get, "/", 404, nil), (.get, "/consolex", 404, nil),
            (.get, "/console/nowhere", 404, nil), (.delete, "/console/links", 405, "GET, POST, HEAD"),
            (.get, "/console/sign-out", 405, "POST"), (.get, "/console/sign-in", 200, nil),
            (.get, "/console/links/new/x", 404, nil),
        ] as [(HTTPMethod, String, Int, String?)] {
            let got = InProcessRequest.answer(router, HTTPRequest(method: method, target: path))
            XCTAssertEqual(got.response?.status, status, "\(method.name) \(path)")
            XCTAssertEqual(got.response?.headers["allow"], allow, "\(method.name) \(path)")
            XCTAssertEqual(got.route, "console", "\(method.name) \(path)")
        }
    }

    /// The route name the table gives a request (the access log's label), its handler run
    /// in process for a host that is no domain.
    private func route(_ router: Router, _ method: HTTPMethod, _ path: String) -> String {
        var request = HTTPRequest(method: method, target: path)
        request.headers.add("Host", "unknown.example")
        return InProcessRequest.answer(router, request, timeoutSeconds: 5).route
    }
}
