import Core
import HTTPMessages
import XCTest

@testable import Management

/// What a body may cost (issue 33): at most `RequestBody.maxValues` values, and a refusal
/// lists at most `FieldProblem.maxListed` problems however many the body breaks.
final class RequestBodyLimitsTests: XCTestCase {
    private func body(_ text: String) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/api/v1/links", headers: HTTPHeaders(), body: Array(text.utf8))
    }

    /// `{"a":[0,0,...]}` holding `values` values in all (the object and the array count).
    private func values(_ values: Int) -> String {
        "{\"a\":[" + Array(repeating: "0", count: values - 2).joined(separator: ",") + "]}"
    }

    func testABodyOfAtMostTheValueBudgetIsRead() throws {
        let members = try RequestBody.parse(body(values(RequestBody.maxValues)))
        XCTAssertEqual(members?.first?.1.arrayValue?.count, RequestBody.maxValues - 2)
    }

    func testOneValueMoreIsRefusedWithTheRuleNamed() {
        for text in [
            values(RequestBody.maxValues + 1),
            "{" + (0...RequestBody.maxValues).map { "\"k\($0)\":0" }.joined(separator: ",") + "}",
        ] {
            XCTAssertLessThanOrEqual(text.utf8.count, RequestBody.maxBytes)
            XCTAssertThrowsError(try RequestBody.parse(body(text))) { error in
                guard case .malformed(let problem) = error as? ManagementError else { return XCTFail("\(error)") }
                XCTAssertEqual(problem.field, "body")
                XCTAssertEqual(problem.rule, "must hold at most 4096 JSON values (members and array items)")
            }
        }
    }

    func testARefusalListsAtMostOneHundredProblemsAndCountsThemAll() {
        let problems = (0..<250).map { FieldProblem("k\($0)", "is not a known field") }
        let error = ManagementError.invalid(problems)
        let details = error.body(requestId: "req_1")["error"]?["details"]
        XCTAssertEqual(details?["errors"]?.arrayValue?.count, FieldProblem.maxListed)
        XCTAssertEqual(details?["errors"]?.arrayValue?.last?["field"], "k99")
        XCTAssertEqual(details?["field"], "k0")
        XCTAssertEqual(
            error.message, "k0 is not a known field (and 249 more; details.errors lists the first 100)")
        let few = ManagementError.invalid(Array(problems.prefix(3)))
        XCTAssertEqual(few.body(requestId: "req_1")["error"]?["details"]?["errors"]?.arrayValue?.count, 3)
        XCTAssertEqual(few.message, "k0 is not a known field (and 2 more; see details.errors)")
    }
}
