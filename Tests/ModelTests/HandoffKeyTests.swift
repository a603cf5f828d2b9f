import Core
import XCTest

@testable import Model

final class HandoffKeyTests: XCTestCase {
    private func token(_ ms: UInt64, _ fill: UInt8) -> String {
        "bqmh_" + Base64URL.encode(HandoffKey.tokenBody(milliseconds: ms, random: [UInt8](repeating: fill, count: 26)))
    }

    func testTokensKeepTheWireFormatAndKeysFollowTime() throws {
        let early = token(1_700_000_000_000, 0xFF)
        let late = token(1_700_000_000_001, 0x00)
        XCTAssertEqual(early.utf8.count, 48)
        let a = try XCTUnwrap(HandoffKey.storageKey(token: early))
        let b = try XCTUnwrap(HandoffKey.storageKey(token: late))
        XCTAssertEqual(a.count, HandoffKey.keyBytes)
        XCTAssertTrue(a.lexicographicallyPrecedes(b), "a later token sorts after an earlier one")
        XCTAssertEqual(Array(a.dropFirst(6)), SHA256.hash(early))
    }

    func testARandomTokenStillHasAKeyAndGarbageHasNone() {
        let random = "bqmh_" + Base64URL.encode([UInt8](repeating: 7, count: 32))
        XCTAssertEqual(HandoffKey.storageKey(token: random)?.prefix(6), [7, 7, 7, 7, 7, 7])
        XCTAssertNil(HandoffKey.storageKey(token: "bqmh_short"))
        XCTAssertNil(HandoffKey.storageKey(token: "nope_" + Base64URL.encode([UInt8](repeating: 7, count: 32))))
    }
}
