import Core
import XCTest

@testable import Management

/// The OpenAPI document and the route table describe the same API.
final class ManagementOpenAPITests: XCTestCase {
    func testTheDocumentParses() {
        let doc = OpenAPIDocument.base
        XCTAssertEqual(doc["openapi"], "3.1.0")
        XCTAssertGreaterThan(doc["paths"]?.objectValue?.count ?? 0, 5)
        XCTAssertGreaterThan(doc["components"]?["schemas"]?.objectValue?.count ?? 0, 10)
        XCTAssertEqual(
            OpenAPIDocument.document(publicURL: "https://edge.example.com")["servers"],
            [["url": "https://edge.example.com"]])
    }

    func testEveryRouteIsDocumentedWithItsMethodAndOperationId() {
        let paths = OpenAPIDocument.base["paths"]?.objectValue ?? []
        for route in ManagementRoutesTable.all {
            let item = paths.first { $0.0 == route.pattern }?.1
            XCTAssertNotNil(item, "\(route.pattern) is not documented")
            let operation = item?[route.method.name.lowercased()]
            XCTAssertNotNil(operation, "\(route.method.name) \(route.pattern) is not documented")
            XCTAssertEqual(operation?["operationId"]?.stringValue, route.operationId)
            let params = (operation?["parameters"]?.arrayValue ?? []).compactMap { p -> String? in
                guard let ref = p["$ref"]?.stringValue else { return p["in"] == "query" ? p["name"]?.stringValue : nil }
                return ["#/components/parameters/Limit": "limit", "#/components/parameters/Cursor": "cursor"][ref]
            }
            XCTAssertEqual(Set(params), route.query, "query parameters of \(route.operationId)")
            if route.isConversion {
                // The server SDK's calls: the key is required, with the SDK's rule.
                let key = operation?["parameters"]?.arrayValue?.first { $0["name"] == "Idempotency-Key" }
                XCTAssertEqual(key?["required"], .bool(true), "Idempotency-Key of \(route.operationId)")
                XCTAssertEqual(key?["schema"], OpenAPIDocument.conversionKeySchema)
            } else {
                XCTAssertEqual(
                    operation?["parameters"]?.arrayValue?.contains {
                        $0["$ref"] == "#/components/parameters/IdempotencyKey"
                    },
                    route.isWrite, "Idempotency-Key of \(route.operationId)")
            }
            // Every route with a key can meet a key without its scope.
            if let scope = route.scope {
                XCTAssertNotNil(operation?["responses"]?["403"], "\(route.operationId) documents no 403 (\(scope))")
            }
            // The body a route refuses to go without is the document's required one.
            XCTAssertEqual(
                operation?["requestBody"]?["required"] == .bool(true), route.requiresBody,
                "requestBody of \(route.operationId)")
            // Every request line can be too long for the transport.
            XCTAssertEqual(operation?["responses"]?["414"], OpenAPIErrorResponse.uriTooLong.reference)
            XCTAssertNotNil(operation?["responses"]?["400"], "\(route.operationId) documents no 400")
            if route.operationId == "track.click" {
                // No secret key: the workspace's browser key (decision 0027).
                XCTAssertEqual(operation?["security"], [["browserKey": []]])
                XCTAssertNotNil(operation?["responses"]?["401"], "track.click documents no 401")
            } else if route.isPublic {
                XCTAssertEqual(operation?["security"], .array([]))
            } else {
                XCTAssertNotNil(operation?["responses"]?["401"], "\(route.operationId) documents no 401")
            }
        }
    }

    func testNothingIsDocumentedThatIsNotRouted() {
        for (path, item) in OpenAPIDocument.base["paths"]?.objectValue ?? [] {
            for (method, _) in item.objectValue ?? [] {
                // The resolver's route is the edge's, not the workspace API's table.
                if path == "/api/v1/track/open" && method == "post" { continue }
                XCTAssertTrue(
                    ManagementRoutesTable.all.contains { $0.pattern == path && $0.method.name.lowercased() == method },
                    "\(method) \(path) is documented but not routed")
            }
        }
    }

    func testEveryReferenceResolves() {
        let doc = OpenAPIDocument.base
        func walk(_ node: JSONValue) {
            switch node {
            case .object(let members):
                for (k, v) in members {
                    if k == "$ref", let ref = v.stringValue {
                        var target: JSONValue? = doc
                        for part in ref.dropFirst(2).split(separator: "/") { target = target?[String(part)] }
                        XCTAssertNotNil(target, ref)
                    }
                    walk(v)
                }
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        walk(doc)
    }
}
