import XCTest

@testable import Templates

final class HTMLEscapingTests: XCTestCase {
    func testMarkupCharactersInTextBecomeCharacterReferences() {
        let text = "<script>alert(1)</script> & \"quoted\" 'single'"
        let html: HTML = "<p>\(text)</p>"
        XCTAssertEqual(
            html.rendered,
            "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;</p>")
    }

    func testQuotesCannotLeaveADoubleQuotedAttribute() throws {
        for hostile in Fixtures.hostile {
            let html: HTML = "<p title=\"\(hostile)\" class=\"x\">\(hostile)</p>"
            let tags = try TagScanner.scan(html.rendered)
            XCTAssertEqual(tags.count, 1, hostile)
            XCTAssertEqual(tags[0].attributes.map(\.0), ["title", "class"], hostile)
        }
    }

    func testClosingTitleInsideTitleStaysText() {
        let html: HTML = "<title>\("</title><script>alert(1)</script>")</title>"
        XCTAssertEqual(html.rendered, "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>")
    }

    func testUnicodePassesThroughAndControlsAreNeutralised() {
        let html: HTML = "<p>\("日本語 🎉 \u{202E}rtl Ünï\u{0}x\u{1}y\tz\n")</p>"
        XCTAssertEqual(html.rendered, "<p>日本語 🎉 \u{202E}rtl Ünï\u{FFFD}xy\tz\n</p>")
    }

    func testAlreadyEscapedTextIsEscapedAgainNotTrusted() {
        let html: HTML = "<p>\("&lt;b&gt;")</p>"
        XCTAssertEqual(html.rendered, "<p>&amp;lt;b&amp;gt;</p>")
    }

    func testPlainStringInURLAttributeRendersNothing() {
        let hostile = "javascript:alert(1)"
        let cases: [HTML] = [
            "<a href=\"\(hostile)\">x</a>",
            "<img src=\"\(hostile)\">",
            "<meta property=\"og:image\" content=\"\(hostile)\">",
            "<meta property=\"og:url\" content=\"\(hostile)\">",
            "<meta name=\"twitter:image\" content=\"\(hostile)\">",
            "<a data-handoff=\"\(hostile)\">x</a>",
            "<p style=\"\(hostile)\">x</p>",
            "<p onclick=\"\(hostile)\">x</p>",
            "<p\nonmouseover=\"\(hostile)\">x</p>",
        ]
        for html in cases {
            XCTAssertFalse(html.rendered.contains("alert"), html.rendered)
        }
        let link: HTML = "<a href=\"\(hostile)\">x</a>"
        XCTAssertEqual(link.rendered, "<a href=\"\">x</a>")
    }

    func testTextAttributesStillTakeEscapedText() {
        let html: HTML =
            "<meta name=\"description\" content=\"\("a \"b\" <c>")\"><p data-copied=\"\("ok")\" id=\"\("x")\">"
        XCTAssertEqual(
            html.rendered,
            "<meta name=\"description\" content=\"a &quot;b&quot; &lt;c&gt;\"><p data-copied=\"ok\" id=\"x\">")
    }

    func testSafeURLInAttributeIsEscapedForTheAttribute() throws {
        let url = try XCTUnwrap(SafeURL("https://example.com/a?b=1&c=2"))
        let html: HTML = "<a href=\"\(url)\">x</a>"
        XCTAssertEqual(html.rendered, "<a href=\"https://example.com/a?b=1&amp;c=2\">x</a>")
    }

    func testNestedFragmentsAreNotEscapedTwice() {
        let inner: HTML = "<b>\("<i>")</b>"
        let outer: HTML = "<p>\(inner)\([inner, inner])</p>"
        XCTAssertEqual(outer.rendered, "<p><b>&lt;i&gt;</b><b>&lt;i&gt;</b><b>&lt;i&gt;</b></p>")
    }

    func testNilTextRendersNothing() {
        let missing: String? = nil
        let html: HTML = "<p>\(missing)</p>"
        XCTAssertEqual(html.rendered, "<p></p>")
    }
}
