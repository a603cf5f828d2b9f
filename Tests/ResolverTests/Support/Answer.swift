import Core
import Foundation
import HTTPMessages
import Resolver
import XCTest

/// A `HTTPResponse` with the accessors tests need.
struct Answer {
    let output: HTTPResponse
    let json: JSONValue

    init(_ output: HTTPResponse) {
        self.output = output
        self.json = (try? JSONParser.parse(output.body)) ?? .null
    }

    var status: Int { output.status }
    var errorCode: String? { json["error"]?["code"]?.stringValue }
    var message: String? { json["error"]?["message"]?.stringValue }
    var open: JSONValue? { json["open"] }
    var matchedBy: String? { json["open"]?["matchedBy"]?.stringValue }
    var confidence: String? { json["open"]?["confidence"]?.stringValue }
    var openId: String? { json["open"]?["id"]?.stringValue }
    var receipt: String? { json["attributionReceipt"]?.stringValue }
    var route: String? { json["link"]?["route"]?.stringValue }
    var linkId: String? { json["link"]?["id"]?.stringValue }
    var clickId: String? { json["click"]?["id"]?.stringValue }
    var referralCode: String? { json["attribution"]?["referralCode"]?.stringValue }
    var requestId: String? { json["requestId"]?.stringValue }
    var bodyText: String { String(decoding: output.body, as: UTF8.self) }
    func header(_ name: String) -> String? { output.headers[name] }

    /// The body without the two per-answer keys, to compare a replay with the original.
    var storedPart: JSONValue {
        guard case .object(let members) = json else { return json }
        return .object(members.filter { $0.0 != "requestId" && $0.0 != "attributionReceipt" })
    }

    func assertError(
        _ status: Int, _ code: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(self.status, status, "status; body: \(bodyText)", file: file, line: line)
        XCTAssertEqual(errorCode, code, "code; body: \(bodyText)", file: file, line: line)
        XCTAssertEqual(header("Cache-Control"), "no-store", file: file, line: line)
        XCTAssertEqual(header("Content-Type"), "application/json", file: file, line: line)
        XCTAssertNotNil(header("X-Biq-Request-Id"), file: file, line: line)
    }

    func assertMatch(
        _ matchedBy: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(status, 200, "body: \(bodyText)", file: file, line: line)
        XCTAssertEqual(self.matchedBy, matchedBy, "body: \(bodyText)", file: file, line: line)
        XCTAssertEqual(header("Cache-Control"), "no-store", file: file, line: line)
    }
}
