import Core
import Model
import Store
import XCTest

@testable import Resolver

/// The resolver's concrete hot-path versions of Store helpers must give the
/// Store's answers: a handoff's stored metadata is copied into responses unparsed.
final class HotPathEquivalenceTests: XCTestCase {
    /// A handoff's metadata as the store writes it, copied as text, renders the same
    /// response as the parsed value.
    func testStoredMetadataTextRendersLikeTheValue() throws {
        let samples: [JSONValue] = [
            [:], ["campaign": "spring_launch"], ["n": 1, "neg": -42, "f": 1.5, "big": 12_345_678_901_234],
            ["deep": ["list": [true, false, nil, ["x": []]]], "s": "quote\"back\\slash/\n\t\u{7F}é🎉\u{0}"],
            ["order": "kept", "a": 0, "z": [1, 2, 3]],
        ]
        for metadata in samples {
            let stored = JSONWriter().bytes(try JSONParser.parse(JSONWriter().bytes(metadata)))
            XCTAssertEqual(stored, JSONWriter().bytes(metadata))
            var m = Match(
                matchedBy: .exactInstallReferrer, clickId: "biq_clk_1", linkId: "biq_lnk_1",
                shortUrl: "https://go.example.test/a", route: "/a", referralCode: "R", metadata: .value(metadata),
                dynamic: [("ref", "A")])
            let parsed = OpenResponseBody.render(openId: "biq_open_1", firstOpen: true, match: m)
            m.metadata = .json(stored)
            XCTAssertEqual(OpenResponseBody.render(openId: "biq_open_1", firstOpen: true, match: m), parsed)
        }
    }

    /// Text that is not an object (not something the store writes) becomes `{}`,
    /// as a non-object value does.
    func testStoredMetadataThatIsNotAnObjectRendersEmpty() {
        for text in ["[]", "1", "", "\"x\""] {
            let m = Match(
                matchedBy: .exactHandoff, clickId: nil, linkId: "biq_lnk_1", shortUrl: "https://go.example.test/a",
                route: "/a", referralCode: nil, metadata: .json(Array(text.utf8)), dynamic: [])
            let body = OpenResponseBody.render(openId: "biq_open_1", firstOpen: false, match: m)
            XCTAssertEqual(try JSONParser.parse(body)["attribution"]?["metadata"], .object([]), text)
        }
    }
}

extension HotPathEquivalenceTests {
    /// The word-at-a-time check agrees with the byte rule for every special byte at
    /// every offset of every short length, and around the bytes next to them.
    func testEscapeCheckAgreesWithTheByteRule() {
        func rule(_ b: [UInt8]) -> Bool { !b.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F } }
        let probes: [UInt8] = [
            0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
        ]
        for length in 0..<40 {
            let base = (0..<length).map { UInt8(0x41 + $0 % 26) }
            XCTAssertTrue(base.withUnsafeBufferPointer(JSONBuffer.needsNoEscape))
            for position in 0..<length {
                for p in probes {
                    var b = base
                    b[position] = p
                    XCTAssertEqual(b.withUnsafeBufferPointer(JSONBuffer.needsNoEscape), rule(b), "\(b)")
                }
            }
        }
    }
}

extension HotPathEquivalenceTests {
    /// The identifier check's bit sets accept exactly the bytes the readable rule does.
    func testIdentifierMasksAreTheByteRule() {
        for c in 0...255 {
            XCTAssertEqual(SafeText.isSafeByteByMask(UInt8(c)), SafeText.isSafeByte(UInt8(c)), "byte \(c)")
            XCTAssertEqual(SafeText.isBase64URLByteByMask(UInt8(c)), SafeText.isBase64URLByte(UInt8(c)), "byte \(c)")
        }
        XCTAssertTrue(SafeText.isSafeIdentifier("Az09._~-", min: 8, max: 8))
        XCTAssertFalse(SafeText.isSafeIdentifier("Az09._~-", min: 9, max: 100))
        XCTAssertFalse(SafeText.isSafeIdentifier("Az09._~/", min: 8, max: 100))
        XCTAssertFalse(SafeText.isSafeIdentifier("Az09._~é", min: 8, max: 100))
    }
}
