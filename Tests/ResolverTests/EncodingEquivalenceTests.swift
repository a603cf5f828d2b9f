import Core
import Model
import Store
import XCTest

@testable import Resolver

/// The resolver's fast encoders must produce exactly what Core's do: receipts are
/// compared with other verifiers' parsers. (Hashes have one implementation,
/// `Core.SHA256`.)
final class EncodingEquivalenceTests: XCTestCase {
    private let samples: [String] = [
        "", "a", "abc", "biqli_mobile_pk_" + String(repeating: "Az09_-", count: 10) + "abcd",
        "bqmh_" + String(repeating: "x", count: 43), String(repeating: "é🎉", count: 40), "quote\"back\\slash\n\t\u{7F}",
    ]

    func testJSONBufferStringsAreJSONWriterStrings() {
        for s in samples + ["/", "\u{0}", "\u{1F}", "plain ascii"] {
            var j = JSONBuffer()
            j.string(s)
            var w: [UInt8] = []
            JSONWriter.writeString(s, into: &w)
            XCTAssertEqual(j.bytes, w, s)
            XCTAssertEqual(try JSONParser.parse(j.bytes), .string(s))
        }
    }

    /// Receipt claims are what Core's writer makes of the documented members in the
    /// documented order, with the open id written in place for `jti` or not.
    func testReceiptClaimsAreJSONWriterObjects() {
        let request = OpenRequest(
            eventId: "open_12345678", appId: "biq_mapp_X", appInstanceId: "install_\"é\\0123456789",
            platform: .android, firstOpen: true, probabilisticAllowed: false, sdkVersion: "1.0.0")
        let match = Match(
            matchedBy: .exactInstallReferrer, clickId: "biq_clk_1", linkId: "biq_lnk_1",
            shortUrl: "https://go.example.test/a", route: "/a", referralCode: nil, metadata: .json([]), dynamic: [])
        for openId in ["biq_open_01ARYZ6S410000000000000000", "biq_open_é\"x", "biq_open_", "other", "é"] {
            let c = ReceiptClaims(
                issuer: "https://api.example.test", request: request, appId: "biq_mapp_X", openId: openId,
                match: match, nowMillis: 1_700_000_000_123, lifetimeSeconds: 600)
            let expected = JSONValue.object([
                ("iss", "https://api.example.test"), ("sub", .string(request.appInstanceId)), ("aud", "biq_mapp_X"),
                ("iat", 1_700_000_000), ("exp", 1_700_000_600), ("jti", .string(c.tokenId)),
                ("openId", .string(openId)),
                ("eventId", "open_12345678"), ("platform", "android"), ("firstOpen", true),
                ("matchedBy", "exact_install_referrer"), ("confidence", "exact"), ("linkId", "biq_lnk_1"),
                ("clickId", "biq_clk_1"), ("referralCode", nil),
            ])
            XCTAssertEqual(c.json, JSONWriter().bytes(expected), openId)
        }
        XCTAssertEqual(
            ReceiptClaims(
                issuer: "i", request: request, appId: "a", openId: "biq_open_01ARYZ6S410000000000000000", match: match,
                nowMillis: 0, lifetimeSeconds: 1
            ).tokenId, "rcpt_01ARYZ6S410000000000000000")
    }

    /// Reads version 2 back: every member is where the format says, and nothing is
    /// left over, so different requests cannot give the same bytes.
    func testCanonicalBytesDecodeBackToTheirMembers() throws {
        var r = OpenRequest(
            eventId: "open_ABCDEF0123456789", appId: "biq_mapp_X", appInstanceId: "install_0123456789abcdef",
            platform: .ios, firstOpen: true, probabilisticAllowed: false, sdkVersion: "1.0.0")
        r.deepLink = "https://go.example.test/invite?ref=\"x\"é"
        r.osVersion = "17.4"
        r.occurredAt = -1_790_000_000_123
        let bytes = CanonicalRequest.bytes(r, idempotencyKeyHash: [1, 2], tokenHash: [0xAB])
        var i = 1
        func member() -> [UInt8]? {
            let present = bytes[i]
            i += 1
            if present == 0 { return nil }
            let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            defer { i += 2 + n }
            return Array(bytes[(i + 2)..<(i + 2 + n)])
        }
        func text() -> String? { member().map { String(decoding: $0, as: UTF8.self) } }
        func flag() -> UInt8 {
            defer { i += 1 }
            return bytes[i]
        }
        XCTAssertEqual(bytes[0], 2)
        XCTAssertEqual(text(), r.appId)
        XCTAssertEqual(text(), r.appInstanceId)
        XCTAssertNil(text())  // appVersion
        XCTAssertEqual(text(), r.deepLink)
        XCTAssertNil(text())  // domain
        XCTAssertEqual(text(), r.eventId)
        XCTAssertEqual(flag(), 1)
        XCTAssertEqual(member(), [0xAB])
        XCTAssertEqual(member(), [1, 2])
        XCTAssertEqual(flag(), 1)
        let t = bytes[i..<(i + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        i += 8
        XCTAssertEqual(t, r.occurredAt)
        XCTAssertEqual(text(), "17.4")
        XCTAssertEqual(text(), "ios")
        XCTAssertEqual(flag(), 0)
        XCTAssertEqual(text(), "1.0.0")
        XCTAssertEqual(i, bytes.count)
        // Absent and empty differ; a member never runs into the next.
        var empty = r
        empty.deepLink = ""
        var absent = r
        absent.deepLink = nil
        XCTAssertNotEqual(
            CanonicalRequest.bytes(empty, idempotencyKeyHash: [1, 2], tokenHash: [0xAB]),
            CanonicalRequest.bytes(absent, idempotencyKeyHash: [1, 2], tokenHash: [0xAB]))
        var shifted = r
        shifted.appId = "biq_mapp_"
        shifted.appInstanceId = "Xinstall_0123456789abcdef"
        XCTAssertNotEqual(
            CanonicalRequest.bytes(shifted, idempotencyKeyHash: [1, 2], tokenHash: [0xAB]), bytes)
    }

    func testStoredResponseParsesToTheDocumentedShape() throws {
        let match = Match(
            matchedBy: .exactHandoff, clickId: "biq_clk_1", linkId: "biq_lnk_1", shortUrl: "https://go.example.test/a",
            route: "/a?x=\"y\"", referralCode: nil, metadata: .value(["n": 1, "deep": ["list": [true, nil]]]),
            dynamic: [("ref", "A"), ("ref", "B"), ("utm", "é")])
        let bytes = OpenResponseBody.render(openId: "biq_open_1", firstOpen: false, match: match)
        let expected: JSONValue = [
            "open": ["id": "biq_open_1", "firstOpen": false, "matchedBy": "exact_handoff", "confidence": "exact"],
            "click": ["id": "biq_clk_1"],
            "link": ["id": "biq_lnk_1", "shortUrl": "https://go.example.test/a", "route": "/a?x=\"y\""],
            "attribution": [
                "referralCode": nil, "metadata": ["n": 1, "deep": ["list": [true, nil]]],
                "dynamic": ["ref": "A", "utm": "é"],
            ],
        ]
        XCTAssertEqual(try JSONParser.parse(bytes), expected)
        let none = OpenResponseBody.render(openId: "biq_open_2", firstOpen: true, match: nil)
        XCTAssertEqual(
            String(decoding: none, as: UTF8.self),
            #"{"open":{"id":"biq_open_2","firstOpen":true,"matchedBy":"none","confidence":"none"},"click":null,"link":null,"attribution":null}"#
        )
    }

    func testTrimmingOptionalWhitespace() {
        XCTAssertEqual("  a b\t".trimmingOptionalWhitespace(), "a b")
        XCTAssertEqual("ab".trimmingOptionalWhitespace(), "ab")
        XCTAssertEqual(" \t ".trimmingOptionalWhitespace(), "")
        XCTAssertEqual("".trimmingOptionalWhitespace(), "")
        XCTAssertEqual(" é ".trimmingOptionalWhitespace(), "é")
    }
}
