import Model
import XCTest

/// A link key's syntax (the base64url alphabet, 1 to 64 bytes), checked by every visit
/// and every write of a link.
final class LinkKeyTests: XCTestCase {
    func testKeyBytesAreExactlyTheKeyAlphabet() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".utf8)
        for byte in UInt8.min...UInt8.max {
            let key = Substring("ab" + String(decoding: [byte], as: UTF8.self))
            XCTAssertEqual(LinkKey.isPossible(key), alphabet.contains(byte), "byte \(byte)")
        }
        XCTAssertTrue(LinkKey.isPossible("invite"))
        XCTAssertTrue(LinkKey.isPossible(Substring(String(repeating: "a", count: 64))))
        XCTAssertFalse(LinkKey.isPossible(Substring(String(repeating: "a", count: 65))))
        XCTAssertFalse(LinkKey.isPossible(""))
        XCTAssertFalse(LinkKey.isPossible("in.vite"))
    }

    func testReservedWordsAreThoseOfTheEdgesOwnRoutes() {
        for word in ["api", "m", "_biqli", ".well-known", "healthz", "metrics", "apple-app-site-association"] {
            XCTAssertTrue(LinkKey.reserved.contains(word), word)
        }
        XCTAssertFalse(LinkKey.reserved.contains("invite"))
    }
}
