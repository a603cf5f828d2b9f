import XCTest

@testable import Visit

final class SafariEscapeTests: XCTestCase {
    func testSafariSchemeOnlyWhereItWorks() {
        let link = "https://go.example.com/summer?ref=BOB"
        XCTAssertEqual(
            SafariEscape.url(link: link, osVersion: "17.5", app: "instagram"),
            "x-safari-https://go.example.com/summer?ref=BOB")
        for version in ["17.5.1", "17.6", "18", "18.6", "26.0"] {
            XCTAssertNotNil(SafariEscape.url(link: link, osVersion: version, app: "facebook"), version)
        }
        for version in ["17.4.1", "17.0", "17", "16.7", "9", "", "x.5", "17.x"] {
            XCTAssertNil(SafariEscape.url(link: link, osVersion: version, app: "facebook"), version)
        }
        XCTAssertNil(SafariEscape.url(link: link, osVersion: nil, app: "facebook"))
        XCTAssertNil(SafariEscape.url(link: link, osVersion: "18.1", app: "snapchat"))
        XCTAssertNil(SafariEscape.url(link: link, osVersion: "18.1", app: "wechat"))
        XCTAssertNil(SafariEscape.url(link: "http://go.example.com/k", osVersion: "18.1", app: "line"))
        XCTAssertNotNil(SafariEscape.url(link: link, osVersion: "18.1", app: nil))
    }
}
