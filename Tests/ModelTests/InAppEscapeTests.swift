import Core
import XCTest

@testable import Model

final class InAppEscapeTests: XCTestCase {
    func testEverythingIsAllowedWithoutSwitches() {
        XCTAssertEqual(
            InAppEscapeSwitches.allowed(tag: "instagram", link: nil, workspace: nil), Set(InAppEscape.allCases))
        XCTAssertEqual(
            InAppEscapeSwitches.allowed(tag: "instagram", link: .init(), workspace: .init()),
            Set(InAppEscape.allCases))
    }

    func testTheLinkWinsOverTheWorkspaceAndANamedAppOverStar() {
        let workspace = InAppEscapeSwitches(["*": [.safari], "tiktok": [], "facebook": [.playIntent]])
        let link = InAppEscapeSwitches(["facebook": [.appIntent, .playIntent]])
        XCTAssertEqual(
            InAppEscapeSwitches.allowed(tag: "facebook", link: link, workspace: workspace),
            [
                .appIntent, .playIntent,
            ])
        XCTAssertEqual(InAppEscapeSwitches.allowed(tag: "tiktok", link: link, workspace: workspace), [])
        XCTAssertEqual(InAppEscapeSwitches.allowed(tag: "line", link: link, workspace: workspace), [.safari])
        // A link's `*` covers every app it does not name, before the workspace's own entries.
        let linkStar = InAppEscapeSwitches(["*": []])
        XCTAssertEqual(InAppEscapeSwitches.allowed(tag: "facebook", link: linkStar, workspace: workspace), [])
    }
}

final class InAppEscapeSwitchesJSONTests: XCTestCase {
    func testTheJSONIsSortedAndReadsBack() {
        let switches = InAppEscapeSwitches(["tiktok": [], "*": [.safari, .playIntent], "facebook": [.alternateDomain]])
        let json = switches.json
        XCTAssertEqual(
            JSONWriter().string(json), #"{"*":["playIntent","safari"],"facebook":["alternateDomain"],"tiktok":[]}"#)
        XCTAssertEqual(InAppEscapeSwitches(json: json), switches)
        XCTAssertEqual(InAppEscapeSwitches(json: .object([])), InAppEscapeSwitches())
    }

    func testAnythingButAnObjectOfKnownEscapesIsRefused() {
        XCTAssertNil(InAppEscapeSwitches(json: .array([])))
        XCTAssertNil(InAppEscapeSwitches(json: .object([("*", .string("safari"))])))
        XCTAssertNil(InAppEscapeSwitches(json: .object([("*", .array([.string("chrome")]))])))
        XCTAssertNil(InAppEscapeSwitches(json: .object([("*", .array([.int(1)]))])))
    }
}
