import XCTest

@testable import Templates

final class LocalURLTests: XCTestCase {
    func testPathsAndFragmentsOfThisOriginOnly() {
        for good in ["/", "/console/", "/console/links?q=a&after=biq_lnk_1", "#main", "/a%20b"] {
            XCTAssertEqual(LocalURL(good)?.path, good, good)
        }
        for bad in [
            "", "//evil.example", "/\\evil.example", "javascript:alert(1)", "https://x.test/", "console/",
            "/a b", "/a\"b", "/a<b", "/a'b", "/a`b", "/é", "/a\nb", "/a\u{7F}",
        ] {
            XCTAssertNil(LocalURL(bad), bad)
        }
    }

    func testALocalURLFillsAURLAttributeEscaped() {
        let url = LocalURL("/console/links?q=a&after=b")!
        let html: HTML = "<a href=\"\(url)\">x</a>"
        XCTAssertEqual(html.rendered, "<a href=\"/console/links?q=a&amp;after=b\">x</a>")
    }
}
