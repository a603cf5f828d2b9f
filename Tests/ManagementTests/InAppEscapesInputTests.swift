import Core
import Model
import XCTest

@testable import Management

/// The switches of the in-app escapes as requests state them (decision 0033 §5): on a link
/// (`inAppEscapes`) and on the workspace (`PATCH /api/v1/in-app-escapes`); a tag is one of
/// the classifier's or `*`, an escape one of `InAppEscape`; each problem names its field.
final class InAppEscapesInputTests: XCTestCase {
    private let base = #""domain": "go.example.com", "key": "k", "url": "https://x.com/""#

    private func link(_ json: String) throws -> Link {
        try LinkInput.decode(try JSONParser.parse(Array(json.utf8)), id: "biq_lnk_A", existing: nil, now: 1)
    }

    private func linkFields(_ json: String) -> [String] {
        do {
            _ = try link(json)
            return []
        } catch ManagementError.invalid(let problems) {
            return problems.map(\.field)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    func testALinksSwitchesDecodeAndRoundTrip() throws {
        let decoded = try link(
            #"{\#(base), "inAppEscapes": {"*": ["safari", "playIntent", "safari"], "instagram": [], "webview": ["appIntent"]}}"#
        )
        let expected = InAppEscapeSwitches(["*": [.safari, .playIntent], "instagram": [], "webview": [.appIntent]])
        XCTAssertEqual(decoded.options?.inAppEscapes, expected)
        let json = LinkInput.writable(decoded)
        XCTAssertEqual(json["inAppEscapes"], expected.json)
        XCTAssertEqual(try LinkInput.decode(json, id: decoded.id, existing: decoded, now: 1), decoded)
    }

    func testNullAndAnEmptyObjectFollowTheWorkspace() throws {
        XCTAssertNil(try link(#"{\#(base), "inAppEscapes": null}"#).options)
        XCTAssertNil(try link(#"{\#(base), "inAppEscapes": {}}"#).options)
        XCTAssertEqual(LinkInput.writable(try link("{\(base)}"))["inAppEscapes"], .null)
        // `{"*": []}` is not empty: it turns every escape off.
        XCTAssertEqual(try link(#"{\#(base), "inAppEscapes": {"*": []}}"#).options?.inAppEscapes?.byApp, ["*": []])
    }

    func testEachBrokenRuleNamesItsField() {
        XCTAssertEqual(linkFields(#"{\#(base), "inAppEscapes": ["safari"]}"#), ["inAppEscapes"])
        XCTAssertEqual(linkFields(#"{\#(base), "inAppEscapes": {"myspace": []}}"#), ["inAppEscapes.myspace"])
        XCTAssertEqual(linkFields(#"{\#(base), "inAppEscapes": {"Instagram": []}}"#), ["inAppEscapes.Instagram"])
        XCTAssertEqual(linkFields(#"{\#(base), "inAppEscapes": {"tiktok": "safari"}}"#), ["inAppEscapes.tiktok"])
        XCTAssertEqual(
            linkFields(#"{\#(base), "inAppEscapes": {"tiktok": ["safari", "chrome", 1]}}"#),
            ["inAppEscapes.tiktok[1]", "inAppEscapes.tiktok[2]"])
        let many = (0...InAppEscapeSwitches.maxEntries).map { "\"t\($0)\": []" }.joined(separator: ",")
        XCTAssertEqual(linkFields("{\(base), \"inAppEscapes\": {\(many)}}"), ["inAppEscapes"])
    }

    func testEveryClassifierTagAndStarAreAccepted() throws {
        let all = (VisitorClassifierTags.all + ["*"]).map { "\"\($0)\": [\"safari\"]" }.joined(separator: ",")
        let decoded = try link("{\(base), \"inAppEscapes\": {\(all)}}")
        XCTAssertEqual(decoded.options?.inAppEscapes?.byApp.count, VisitorClassifierTags.all.count + 1)
        for tag in ["instagram", "facebook", "messenger", "tiktok", "wechat", "line", "webview", "telegram"] {
            XCTAssertTrue(VisitorClassifierTags.all.contains(tag), tag)
        }
    }

    func testTheWorkspacesSettingsReplaceTheSwitchesWhole() throws {
        var settings = InAppEscapeSettings(switches: InAppEscapeSwitches(["*": []]), updatedAt: 1)
        try InAppEscapeSettingsInput.apply(
            try JSONParser.parse(Array(#"{"switches": {"instagram": ["playIntent"]}}"#.utf8)), to: &settings)
        XCTAssertEqual(settings.switches, InAppEscapeSwitches(["instagram": [.playIntent]]))
        try InAppEscapeSettingsInput.apply(try JSONParser.parse(Array("{}".utf8)), to: &settings)
        XCTAssertEqual(settings.switches, InAppEscapeSwitches(["instagram": [.playIntent]]), "absent: unchanged")
        try InAppEscapeSettingsInput.apply(try JSONParser.parse(Array(#"{"switches": null}"#.utf8)), to: &settings)
        XCTAssertEqual(settings.switches, InAppEscapeSwitches())
        for (body, field) in [
            (#"{"switches": {"x": []}}"#, "switches.x"), (#"{"switches": {"*": ["y"]}}"#, "switches.*[0]"),
            (#"{"switches": 3}"#, "switches"), (#"{"other": 1}"#, "other"),
        ] {
            XCTAssertThrowsError(
                try InAppEscapeSettingsInput.apply(try JSONParser.parse(Array(body.utf8)), to: &settings), body
            ) { error in
                guard case ManagementError.invalid(let problems) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(problems.map(\.field), [field], body)
            }
        }
        XCTAssertEqual(settings.switches, InAppEscapeSwitches(), "nothing half-written")
    }
}

/// The classifier's tags, as the API accepts them.
private enum VisitorClassifierTags {
    static let all = InAppEscapesInput.knownTags.subtracting(["*"]).sorted()
}
