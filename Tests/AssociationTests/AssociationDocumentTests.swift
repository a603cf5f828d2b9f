import Core
import XCTest

@testable import Association

final class AssociationDocumentTests: XCTestCase {
    private let doc = AssociationDocument(kind: .assetLinks, body: Array("[]".utf8))

    func testETagIsStrongQuotedAndDerivedFromTheBody() {
        let expected = "\"" + Base64URL.encode(SHA256.hash(Array("[]".utf8)).prefix(16)) + "\""
        XCTAssertEqual(doc.etag, expected)
        XCTAssertEqual(doc.etag.count, 24)
        XCTAssertTrue(doc.etag.hasPrefix("\"") && doc.etag.hasSuffix("\""))
        XCTAssertFalse(doc.etag.hasPrefix("W/"))
        XCTAssertEqual(AssociationDocument(kind: .assetLinks, body: Array("[]".utf8)).etag, doc.etag)
        XCTAssertNotEqual(AssociationDocument(kind: .assetLinks, body: Array("[ ]".utf8)).etag, doc.etag)
    }

    func testHeaders() {
        let headers = doc.headers.map { "\($0.name): \($0.value)" }
        XCTAssertEqual(
            headers, ["Content-Type: application/json", "Cache-Control: public, max-age=3600", "ETag: \(doc.etag)"])
    }

    func testIfNoneMatchTable() {
        let tag = doc.etag
        let opaque = String(tag.dropFirst().dropLast())
        let table: [(String?, Bool)] = [
            (nil, false),
            ("", false),
            (tag, true),
            ("*", true),
            (" * ", true),
            ("W/" + tag, true),  // weak comparison
            ("\"other\", " + tag, true),
            ("\"other\",W/" + tag + ",\"x\"", true),
            ("\"a,b\", " + tag, true),  // comma inside a quoted tag
            ("\"other\"", false),
            (opaque, false),  // unquoted is not an entity tag
            ("\"" + opaque, false),  // unterminated
            ("w/" + tag, false),  // the weak indicator is case-sensitive
            ("\"" + opaque.lowercased() + "\"", opaque == opaque.lowercased()),
            ("junk, " + tag, true),
            ("\"\"", false),
        ]
        for (value, expected) in table {
            XCTAssertEqual(doc.matches(ifNoneMatch: value), expected, value ?? "nil")
        }
    }

    func testIfNoneMatchAcrossSeveralFieldLines() {
        XCTAssertTrue(doc.matches(ifNoneMatch: ["\"a\"", doc.etag]))
        XCTAssertFalse(doc.matches(ifNoneMatch: ["\"a\"", "\"b\""]))
        XCTAssertFalse(doc.matches(ifNoneMatch: [String]()))
    }

    func testSizeLimitIs128KiB() {
        XCTAssertEqual(AssociationDocument.maxBytes, 131_072)
        XCTAssertTrue(
            AssociationDocument(kind: .assetLinks, body: [UInt8](repeating: 0x20, count: 131_072)).isWithinSizeLimit)
        XCTAssertFalse(
            AssociationDocument(kind: .assetLinks, body: [UInt8](repeating: 0x20, count: 131_073)).isWithinSizeLimit)
    }
}
