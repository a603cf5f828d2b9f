import Core
import Model
import XCTest

@testable import Console
@testable import Management

final class LinkFormTests: XCTestCase {
    func testACreateLeavesOutWhatIsEmpty() {
        var form = LinkForm()
        form.domain = "go.example.com"
        form.url = "https://example.com/"
        XCTAssertEqual(
            JSONValue.object(form.createFields),
            .object([("domain", "go.example.com"), ("url", "https://example.com/")]))
        form.key = "spring"
        form.app = "biq_mapp_1"
        form.route = "/s"
        form.title = "Spring"
        XCTAssertEqual(
            JSONValue.object(form.createFields),
            .object([
                ("domain", "go.example.com"), ("key", "spring"), ("url", "https://example.com/"),
                ("mobile", .object([("appId", "biq_mapp_1"), ("route", "/s")])),
                ("preview", .object([("title", "Spring")])),
            ]))
        // A route without an app goes to the API, which says the app is missing.
        form.app = ""
        XCTAssertEqual(
            JSONValue.object(form.createFields).objectValue?.first { $0.0 == "mobile" }?.1, .object([("route", "/s")]))
    }

    func testAnEditPatchesWhatTheFormShowsOnly() {
        let link = Link(
            id: "biq_lnk_1", domain: "go.example.com", key: "k", url: "https://example.com/",
            mobile: MobilePayload(appId: "biq_mapp_1", route: "/r", metadata: ["a": 1]),
            preview: LinkPreview(title: "T", description: "D"))
        var form = LinkForm(link)
        XCTAssertEqual(form.app, "biq_mapp_1")
        XCTAssertEqual(form.title, "T")
        form.title = ""
        form.app = ""
        form.route = ""
        XCTAssertEqual(
            JSONValue.object(form.patch(of: link)),
            .object([
                ("domain", "go.example.com"), ("key", "k"), ("url", "https://example.com/"), ("mobile", .null),
                ("preview", .object([("title", .null)])),
            ]))
        form.app = "biq_mapp_2"
        let patch = JSONValue.object(form.patch(of: link)).objectValue ?? []
        XCTAssertEqual(patch.first { $0.0 == "mobile" }?.1, .object([("appId", "biq_mapp_2"), ("route", .null)]))
        // No preview, no title: nothing about the preview.
        XCTAssertNil(
            LinkForm(Link(id: "x", domain: "d", key: "k", url: "u")).patch(
                of: Link(id: "x", domain: "d", key: "k", url: "u")
            ).first { $0.0 == "preview" })
    }

    func testTheAPIsFieldPathsComeBackToTheFormsFields() {
        let problems = [
            FieldProblem("url", "must be https"), FieldProblem("mobile.route", "is required"),
            FieldProblem("mobile.appId", "names no Mobile App"), FieldProblem("mobile.route", "second"),
            FieldProblem("mobile.metadata", "is too big"),
        ]
        let (byField, other) = LinkForm.errors(problems)
        XCTAssertEqual(
            byField,
            [
                "url": "url must be https", "route": "mobile.route is required",
                "app": "mobile.appId names no Mobile App",
            ])
        XCTAssertEqual(other, ["mobile.metadata is too big"])
    }
}
