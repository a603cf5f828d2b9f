import Core
import XCTest

@testable import Model

final class HandoffTokenTests: XCTestCase {
    func testGeneratedTokensHaveTheSDKFormat() {
        for _ in 0..<200 {
            let token = HandoffToken.generate()
            XCTAssertEqual(token.utf8.count, 48)
            XCTAssertTrue(token.hasPrefix("bqmh_"))
            XCTAssertTrue(HandoffToken.isWellFormed(token), token)
            XCTAssertEqual(Base64URL.decode(String(token.dropFirst(5)))?.count, 32)
        }
    }

    func testAGeneratedTokenCarriesItsMillisecondAsTheTokenBodyLayoutSays() throws {
        for ms: UInt64 in [0, 1, 1_700_000_000_123, 0xFFFF_FFFF_FFFF] {
            let token = HandoffToken.generate(milliseconds: ms)
            XCTAssertTrue(HandoffToken.isWellFormed(token), token)
            let body = try XCTUnwrap(Base64URL.decode(String(token.dropFirst(5))))
            XCTAssertEqual(Array(body.prefix(6)), HandoffKey.timePrefix(milliseconds: Int64(ms)), "\(ms)")
            XCTAssertEqual(HandoffToken.make(randomBytes: body), token, "the same encoding as make")
            XCTAssertEqual(HandoffToken.hash(token).prefix(6), HandoffKey.timePrefix(milliseconds: Int64(ms))[...])
        }
    }

    func testGeneratedTokensDiffer() {
        let tokens = Set((0..<1000).map { _ in HandoffToken.generate() })
        XCTAssertEqual(tokens.count, 1000)
    }

    func testMakeEncodesTheGivenBytes() {
        XCTAssertEqual(
            HandoffToken.make(randomBytes: [UInt8](repeating: 0, count: 32)),
            "bqmh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        XCTAssertEqual(
            HandoffToken.make(randomBytes: [UInt8](repeating: 0xFF, count: 32)),
            "bqmh_" + String(repeating: "_", count: 42) + "8")
    }

    func testHashIsTheTimePrefixThenSHA256OfTheWholeToken() {
        let token = "bqmh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        XCTAssertEqual(
            SHA256.hex(HandoffToken.hash(token)),
            "000000000000" + "81bcf7407bf4e0f60c3ff84f7e72deabf766c364ac6a624d2f063bf5118dcdb6")
        XCTAssertEqual(HandoffToken.hash(token), [0, 0, 0, 0, 0, 0] + SHA256.hash(Array(token.utf8)))
        // Text that is not a token still gets a lookup key (which finds nothing).
        XCTAssertEqual(HandoffToken.hash("bqmh_short"), SHA256.hash("bqmh_short"))
    }

    func testGeneratedTokensStartWithTheClickTimeSoKeysGrowInOrder() {
        let early = HandoffToken.generate(milliseconds: 1_790_000_000_000)
        let late = HandoffToken.generate(milliseconds: 1_790_000_000_001)
        XCTAssertTrue(HandoffToken.hash(early).lexicographicallyPrecedes(HandoffToken.hash(late)))
        let body = Base64URL.decode(String(early.dropFirst(5)))!
        XCTAssertEqual(Array(body.prefix(6)), [0x01, 0xA0, 0xC4, 0x50, 0x6C, 0x00])
        XCTAssertTrue(HandoffToken.isWellFormed(early))
        let key = HandoffToken.hash(HandoffToken.generate(milliseconds: 1_790_000_000_123))
        XCTAssertEqual(Array(key.prefix(6)), HandoffKey.timePrefix(milliseconds: 1_790_000_000_123))
        XCTAssertEqual(key.count, 38)
    }

    func testWellFormedTable() {
        let good = "bqmh_" + String(repeating: "a", count: 43)
        let table: [(String, Bool)] = [
            (good, true),
            ("bqmh_" + String(repeating: "-", count: 21) + String(repeating: "_", count: 22), true),
            ("bqmh_" + String(repeating: "Z9", count: 21) + "x", true),
            ("bqmh_" + String(repeating: "a", count: 42), false),
            ("bqmh_" + String(repeating: "a", count: 44), false),
            ("BQMH_" + String(repeating: "a", count: 43), false),
            ("bqmx_" + String(repeating: "a", count: 43), false),
            ("bqmh_" + String(repeating: "a", count: 42) + "=", false),
            ("bqmh_" + String(repeating: "a", count: 42) + "+", false),
            ("bqmh_" + String(repeating: "a", count: 42) + "/", false),
            ("bqmh_" + String(repeating: "a", count: 42) + ".", false),
            ("bqmh_" + String(repeating: "a", count: 41) + "é", false),
            ("", false),
        ]
        for (text, ok) in table {
            XCTAssertEqual(HandoffToken.isWellFormed(text), ok, text)
        }
        XCTAssertTrue(HandoffToken.isWellFormed(Substring(good)))
    }
    private func tokens() -> [String] {
        var out = [
            "", "bqmh_", "bqmh_" + String(repeating: "A", count: 43), "bqmh_" + String(repeating: "_", count: 43),
            "bqmh_" + String(repeating: "-", count: 42) + "B", "bqmh_" + String(repeating: "a", count: 42) + "\u{e9}",
            "bqmh_" + String(repeating: "a", count: 44), "BQMH_" + String(repeating: "a", count: 43),
            "xqmh_" + String(repeating: "a", count: 43), "bqmh_" + String(repeating: "a", count: 42) + "=",
            "bqmh_" + String(repeating: "a", count: 42) + " ", String(repeating: "é", count: 48),
        ]
        for i in 0..<200 {
            let body = (0..<32).map { UInt8(truncatingIfNeeded: ($0 + 1) &* (i + 7) &* 131) }
            out.append(HandoffToken.make(randomBytes: body))
            out.append(HandoffToken.generate(milliseconds: UInt64(1_700_000_000_000 + i)))
            // Non-canonical last character (spare bits set): not a storage key any more.
            var text = Array(HandoffToken.make(randomBytes: body).utf8)
            text[47] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)[i % 64]
            out.append(String(decoding: text, as: UTF8.self))
        }
        return out
    }

    /// `hash` and `isWellFormed` read the token's bytes directly; they must agree with
    /// the definitions: `HandoffKey.storageKey` else SHA-256, and the SDKs' pattern.
    func testHashAndFormCheckAgreeWithTheirDefinitions() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for t in tokens() {
            XCTAssertEqual(HandoffToken.hash(t), HandoffKey.storageKey(token: t) ?? SHA256.hash(Array(t.utf8)), t)
            let pattern =
                t.utf8.count == 48 && t.hasPrefix("bqmh_") && t.utf8.dropFirst(5).allSatisfy(alphabet.contains)
            XCTAssertEqual(HandoffToken.isWellFormed(t), pattern, t)
            XCTAssertEqual(HandoffToken.isWellFormed(Substring("x" + t + "x").dropFirst().dropLast()), pattern, t)
        }
    }
}
