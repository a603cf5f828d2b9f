import Core
import XCTest

@testable import Management
@testable import Resolver

/// The served document's `POST /api/v1/track/open` names exactly the codes the resolver
/// answers with, each under its status and envelope (issue 33 item 12).
final class ResolverOpenAPITests: XCTestCase {
    /// One of each case. `isListed` does not compile until a new case is added there, and
    /// so here.
    let everyError: [ResolverError] = [
        .invalidHeaders("x"), .invalidMobileKey, .invalidRequest("x"), .validationError("x"),
        .resourceNotFound("x"), .mobileLinkingUnavailable, .mobileSDKUnavailable, .idempotencyConflict,
        .platformNotConfigured, .headerMismatch("x"), .invalidProbabilisticDomain, .platformMismatch,
        .handoffMismatch, .rateLimited(retryAfterSeconds: 1), .internalServerError,
        .storeUnavailable(retryAfterSeconds: 1),
    ]

    /// Whether the POST operation documents `error` (405 is another method's answer).
    func isListed(_ error: ResolverError) -> Bool {
        switch error {
        case .methodNotAllowed: return false
        case .invalidHeaders, .invalidMobileKey, .invalidRequest, .validationError, .resourceNotFound,
            .mobileLinkingUnavailable, .mobileSDKUnavailable, .idempotencyConflict, .platformNotConfigured,
            .headerMismatch, .invalidProbabilisticDomain, .platformMismatch, .handoffMismatch, .rateLimited,
            .internalServerError, .storeUnavailable:
            return true
        }
    }

    func testEveryCodeOfTheResolverIsDocumentedUnderItsStatusAndNothingElse() throws {
        let operation = try XCTUnwrap(OpenAPIDocument.base["paths"]?["/api/v1/track/open"]?["post"])
        var answered: [String: Set<String>] = [:]
        for error in everyError where isListed(error) {
            answered[String(error.status), default: []].insert(error.code)
        }
        var documented: [String: Set<String>] = [:]
        for (status, response) in operation["responses"]?.objectValue ?? []
        where status.hasPrefix("4") || status.hasPrefix("5") {
            guard let schema = response["content"]?["application/json"]?["schema"] else { continue }
            let codes = schema["allOf"]?.arrayValue?.last?["properties"]?["error"]?["properties"]?["code"]?["enum"]
            documented[status] = Set((codes?.arrayValue ?? []).compactMap(\.stringValue))
            let envelope = schema["allOf"]?.arrayValue?.first?["$ref"]?.stringValue
            let standard = everyError.contains { String($0.status) == status && $0.usesStandardEnvelope }
            XCTAssertEqual(
                envelope, standard ? "#/components/schemas/ApiError" : "#/components/schemas/MobileApiError", status)
        }
        XCTAssertEqual(documented, answered)
        XCTAssertEqual(operation["security"], [["mobilePublishableKey": []]])
    }
}
