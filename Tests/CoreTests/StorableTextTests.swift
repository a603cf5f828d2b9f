import Core
import XCTest

/// The one rule for outside text that is kept (issue 33 item 2).
final class StorableTextTests: XCTestCase {
    func testANulAndBytesThatAreNotUTF8BecomeTheReplacementCharacter() {
        let text = StorableText.from(Array("ok".utf8) + [0] + Array("then".utf8) + [0xFF, 0xFE] + Array("bad".utf8))
        XCTAssertEqual(text, "ok\u{FFFD}then\u{FFFD}\u{FFFD}bad")
        XCTAssertFalse(text.utf8.contains(0))
        XCTAssertEqual(StorableText.clean("a\u{0}\u{0}b"), "a\u{FFFD}\u{FFFD}b")
        XCTAssertEqual(StorableText.clean(String?.none), nil)
    }

    func testTextWithoutANulIsKeptAsItIs() {
        for text in ["", "plain", "Zoë ✓ 🎉", "tab\tand\r\nnewline", "\u{1}\u{7F}"] {
            XCTAssertEqual(StorableText.clean(text), text)
            XCTAssertEqual(StorableText.from(Array(text.utf8)), text)
        }
    }

    func testAtMostMaxBytesAreRead() {
        XCTAssertEqual(StorableText.from(Array("abcdef".utf8), maxBytes: 3), "abc")
        // A character cut at the end is replaced, never a partial one kept.
        XCTAssertEqual(StorableText.from(Array("aé".utf8), maxBytes: 2), "a\u{FFFD}")
    }
}
