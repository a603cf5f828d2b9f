import Core
import Model
import XCTest

@testable import Management

/// The document's error codes are the edge's (issue 33 item 12): the `ApiError` enum is
/// exactly what `ManagementError` answers, each operation narrows its answers to the
/// codes it can give, and no code is listed that no operation gives.
final class ManagementErrorCodeTests: XCTestCase {
    /// One of each case (`url_blocked` too). `sampleCovers` does not compile until a new
    /// case is added there, and so here.
    let everyError: [ManagementError] = [
        .invalidToken, .notFound("x"), .methodNotAllowed(["GET"]), .malformed(FieldProblem("f", "r")),
        .invalid([FieldProblem("f", "r")]), .invalid([FieldProblem("f", "r", blocked: true)]), .domainTaken("x"),
        .aliasTaken(domain: "d", key: "k"), .idempotencyConflict, .eventConflict(field: "eventId"), .internalError,
        .insufficientScope(.linksRead), .idempotencyKeyRequired, .invalidClickId, .attributionRequired,
        .currencyUnavailable("xxx"), .rateLimited(retryAfterSeconds: 1), .invalidBrowserKey, .originRequired,
        .originNotAllowed("o"), .hostnameNotConfigured, .invalidPreflight("w"), .clientClickTrackingDisabled("w"),
        .webhookURLTaken(endpointId: "e"), .webhookTestLimited(retryAfterSeconds: 1),
        .externalIdTaken(linkId: "l"), .tagNameTaken(tagId: "t"),
    ]

    func sampleCovers(_ error: ManagementError) -> Bool {
        switch error {
        case .invalidToken, .notFound, .methodNotAllowed, .malformed, .invalid, .domainTaken, .aliasTaken,
            .idempotencyConflict, .eventConflict, .internalError, .insufficientScope, .idempotencyKeyRequired,
            .invalidClickId, .attributionRequired, .currencyUnavailable, .rateLimited, .invalidBrowserKey,
            .originRequired, .originNotAllowed, .hostnameNotConfigured, .invalidPreflight,
            .clientClickTrackingDisabled, .webhookURLTaken, .webhookTestLimited, .externalIdTaken,
            .tagNameTaken:
            return true
        }
    }

    /// Status -> codes of each operation's narrowed error answers.
    func documentedCodes() -> [String: [String: Set<String>]] {
        var out: [String: [String: Set<String>]] = [:]
        for (_, item) in OpenAPIDocument.base["paths"]?.objectValue ?? [] {
            for (_, operation) in item.objectValue ?? [] {
                guard let id = operation["operationId"]?.stringValue else { continue }
                for (status, answer) in operation["responses"]?.objectValue ?? [] where status.first != "2" {
                    let codes = answer["content"]?["application/json"]?["schema"]?["allOf"]?.arrayValue?.last?[
                        "properties"]?["error"]?["properties"]?["code"]?["enum"]?.arrayValue
                    out[id, default: [:]][status] = Set((codes ?? []).compactMap(\.stringValue))
                }
            }
        }
        return out
    }

    func testEveryCodeTheAPIAnswersIsInTheEnumAndTheEnumHoldsNoOther() {
        let answered = Set(everyError.filter(sampleCovers).map(\.code))
        XCTAssertEqual(answered, Set(ManagementErrorCode.allCases.map(\.rawValue)))
        let envelope = OpenAPIDocument.base["components"]?["schemas"]?["ApiError"]?["properties"]?["error"]?[
            "properties"]?["code"]?["enum"]
        XCTAssertEqual(envelope, .array(ManagementErrorCode.allCases.map { .string($0.rawValue) }))
    }

    func testEveryJSONErrorAnswerNamesItsCodesAndEachCodeIsSomeOperations() {
        let documented = documentedCodes()
        var used: Set<String> = []
        for (id, statuses) in documented {
            for (status, codes) in statuses where status != "413" && status != "414" {
                XCTAssertFalse(codes.isEmpty, "\(id) \(status) names no code")
                used.formUnion(codes)
            }
        }
        // 405 answers a method no operation has; the resolver's own codes are its own.
        let workspace = Set(ManagementErrorCode.allCases.map(\.rawValue)).subtracting(["method_not_allowed"])
        XCTAssertEqual(workspace.subtracting(used), [], "listed in the enum, answered by no operation")
    }

    func testEachCodeIsDocumentedUnderTheStatusItIsAnsweredWith() {
        let documented = documentedCodes()
        var statusesOf: [String: Set<Int>] = [:]
        for error in everyError { statusesOf[error.code, default: []].insert(error.status) }
        // A body the API cannot read is 400 validation_error (`malformed`), one it can is 422.
        for (id, statuses) in documented where id != "mobileOpen.resolve" {
            for (status, codes) in statuses {
                for code in codes {
                    XCTAssertTrue(
                        statusesOf[code]?.contains(Int(status) ?? 0) == true, "\(id) lists \(code) under \(status)")
                }
            }
        }
        XCTAssertEqual(documented["domains.create"]?["409"], ["idempotency_conflict", "domain_taken"])
        XCTAssertEqual(
            documented["links.update"]?["409"], ["idempotency_conflict", "alias_taken", "external_id_taken"])
        XCTAssertEqual(documented["domains.get"]?["404"], ["resource_not_found"])
        XCTAssertNil(documented["domains.list"]?["404"])
    }
}
