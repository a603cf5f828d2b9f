import Foundation
import Model
import XCTest

@testable import Templates

final class DeepViewPageTests: XCTestCase {
    let pages = Pages()

    func testContainsTheHandoffURLExactlyOnceOnTheContinueButton() throws {
        let page = pages.deepView(Fixtures.deepView(), acceptLanguage: nil)
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.text.occurrences(of: Fixtures.handoffURL), 1)
        XCTAssertEqual(page.text.occurrences(of: "biqli_token"), 1)
        let button = try XCTUnwrap(try TagScanner.scan(page.text).first { $0.attribute("id") == "biqli-continue" })
        XCTAssertEqual(button.name, "a")
        XCTAssertEqual(button.attribute("data-handoff"), Fixtures.handoffURL)
        XCTAssertEqual(button.attribute("href"), Fixtures.appStoreURL)
    }

    func testHasOneContinueButtonWithAnAccessibleNameAndExplanation() throws {
        let page = pages.deepView(Fixtures.deepView(), acceptLanguage: "en")
        let tags = try TagScanner.scan(page.text)
        XCTAssertEqual(tags.filter { $0.name == "a" }.count, 1)
        XCTAssertTrue(page.text.contains("aria-describedby=\"biqli-explain\">Continue</a>"))
        XCTAssertTrue(
            page.text.contains(
                "<p id=\"biqli-explain\" class=\"note\">Continue copies a link that Acme Recipes will ask you to paste after you install it.</p>"
            ))
        XCTAssertNotNil(tags.first { $0.attribute("id") == "biqli-status" && $0.attribute("role") == "status" })
    }

    func testShowsAppNameIconTitleDescriptionAndImage() {
        let text = pages.deepView(Fixtures.deepView(), acceptLanguage: nil).text
        XCTAssertTrue(text.contains("<p class=\"app-name\" dir=\"auto\">Acme Recipes</p>"))
        XCTAssertTrue(text.contains("src=\"https://cdn.example.com/icon.png\""))
        XCTAssertTrue(text.contains("<h1 dir=\"auto\">Lemon tart</h1>"))
        XCTAssertTrue(text.contains("A bright, crisp tart for summer evenings."))
        XCTAssertTrue(text.contains("<img class=\"hero\" src=\"https://cdn.example.com/tart.jpg\" alt=\"\">"))
        XCTAssertTrue(text.contains("<title>Lemon tart</title>"))
    }

    func testSmartAppBannerOnlyWithAnAppStoreID() {
        let withID = pages.deepView(Fixtures.deepView(), acceptLanguage: nil).text
        XCTAssertEqual(withID.occurrences(of: "<meta name=\"apple-itunes-app\" content=\"app-id=1234567890\">"), 1)

        let testFlight = Fixtures.app(appStoreId: nil, testFlight: "https://testflight.apple.com/join/AbC123")
        let withoutID = pages.deepView(Fixtures.deepView(app: testFlight), acceptLanguage: nil).text
        XCTAssertFalse(withoutID.contains("apple-itunes-app"))
        XCTAssertTrue(withoutID.contains("href=\"https://testflight.apple.com/join/AbC123\""))
        XCTAssertTrue(withoutID.contains("Beta on TestFlight"))
        XCTAssertTrue(withoutID.contains("data-copied=\"Link copied. Opening TestFlight…\""))
    }

    func testAppStoreWinsOverTestFlightWhenBothExist() {
        let both = Fixtures.app(appStoreId: "42", testFlight: "https://testflight.apple.com/join/AbC123")
        let text = pages.deepView(Fixtures.deepView(app: both), acceptLanguage: nil).text
        XCTAssertTrue(text.contains("href=\"https://apps.apple.com/app/id42\""))
        XCTAssertFalse(text.contains("testflight"))
    }

    func testModelRefusesAppsWithoutAnIOSStoreTargetAndBadTokens() {
        let link = Fixtures.link()
        XCTAssertNil(DeepViewModel(app: Fixtures.app(appStoreId: nil), link: link, handoffToken: Fixtures.token))
        XCTAssertNil(
            DeepViewModel(
                app: Fixtures.app(appStoreId: "abc", testFlight: "https://evil.com/join/x"), link: link,
                handoffToken: Fixtures.token))
        var noIOS = Fixtures.app()
        noIOS.ios = nil
        XCTAssertNil(DeepViewModel(app: noIOS, link: link, handoffToken: Fixtures.token))
        XCTAssertNil(DeepViewModel(app: Fixtures.app(), link: link, handoffToken: "bqmh_short"))
    }

    func testHostileTitleDescriptionAndNameComeOutInert() {
        for hostile in Fixtures.hostile {
            let app = Fixtures.app(name: hostile)
            let link = Fixtures.link(title: hostile, description: hostile)
            let text = pages.deepView(Fixtures.deepView(app: app, link: link), acceptLanguage: nil).text
            TagScanner.assertInert(text)
            XCTAssertFalse(text.contains("<script>alert"), hostile)
            XCTAssertFalse(text.contains("onmouseover=\""), hostile)
            XCTAssertFalse(text.contains("onerror=\""), hostile)
            XCTAssertEqual(text.occurrences(of: Fixtures.handoffURL), 1, hostile)
        }
    }

    func testHostileIconAndImageURLsAreDroppedForThePlaceholder() throws {
        for hostile in Fixtures.hostile + ["http://cdn.example.com/i.png", "data:image/png;base64,AAAA"] {
            let app = Fixtures.app(icon: hostile)
            let link = Fixtures.link(image: hostile)
            let text = pages.deepView(Fixtures.deepView(app: app, link: link), acceptLanguage: nil).text
            TagScanner.assertInert(text)
            XCTAssertFalse(text.contains("class=\"hero\""), hostile)
            let icon = try XCTUnwrap(try TagScanner.scan(text).first { $0.attribute("class") == "app-icon" })
            let placeholder = try XCTUnwrap(AssetCatalog.url(for: "app-icon.svg"))
            XCTAssertEqual(icon.attribute("src"), placeholder, hostile)
        }
    }

    func testAppNameIsSubstitutedOnceAndEscaped() {
        let app = Fixtures.app(name: "{app} <b>")
        let text = pages.deepView(Fixtures.deepView(app: app), acceptLanguage: nil).text
        XCTAssertTrue(text.contains("a link that {app} &lt;b&gt; will ask you to paste"))
    }

    func testMissingTitleFallsBackToTheAppNameAndMissingDescriptionIsOmitted() {
        let link = Fixtures.link(title: "   ", description: nil, image: nil)
        let text = pages.deepView(Fixtures.deepView(link: link), acceptLanguage: nil).text
        XCTAssertTrue(text.contains("<h1 class=\"app-name\" dir=\"auto\">Acme Recipes</h1>"))
        XCTAssertEqual(text.occurrences(of: "dir=\"auto\">Acme Recipes<"), 1)
        XCTAssertFalse(text.contains("class=\"lead\""))
        XCTAssertFalse(text.contains("class=\"hero\""))
    }

    func testOverlongTitleIsCutWithAnEllipsis() {
        let link = Fixtures.link(title: String(repeating: "é", count: 1000))
        let text = pages.deepView(Fixtures.deepView(link: link), acceptLanguage: nil).text
        XCTAssertTrue(text.contains("<h1 dir=\"auto\">" + String(repeating: "é", count: 199) + "…</h1>"))
    }

    func testLoadsTheHashedScriptAndStylesheet() throws {
        let text = pages.deepView(Fixtures.deepView(), acceptLanguage: nil).text
        let script = try XCTUnwrap(AssetCatalog.url(for: "deepview.js"))
        let css = try XCTUnwrap(AssetCatalog.url(for: "biqli.css"))
        XCTAssertTrue(text.contains("<script src=\"\(script)\" nonce=\""))
        XCTAssertTrue(text.contains("<link rel=\"stylesheet\" href=\"\(css)\">"))
    }

    func testIsLocalisedByAcceptLanguage() {
        let text = pages.deepView(Fixtures.deepView(), acceptLanguage: "de-CH, de;q=0.9, en;q=0.5").text
        XCTAssertTrue(text.contains("<html lang=\"de\" dir=\"ltr\">"))
        XCTAssertTrue(text.contains(">Weiter</a>"))
        XCTAssertTrue(text.contains("bittet dich Acme Recipes, ihn einzufügen"))
    }

    func testTheScriptReadsTheAttributesThePageWrites() throws {
        // deepview.js and DeepViewPage share a contract of ids and attribute names.
        let script = try XCTUnwrap(AssetCatalog.all.first { $0.name == "deepview.js" })
        let source = String(decoding: script.bytes, as: UTF8.self)
        let page = pages.deepView(Fixtures.deepView(), acceptLanguage: nil).text
        for name in ["biqli-continue", "biqli-status", "data-handoff", "data-copied", "biqli-offscreen"] {
            XCTAssertTrue(source.contains(name), name)
        }
        for name in ["id=\"biqli-continue\"", "id=\"biqli-status\"", "data-handoff=\"", "data-copied=\""] {
            XCTAssertTrue(page.contains(name), name)
        }
        let css = try XCTUnwrap(AssetCatalog.all.first { $0.name == "biqli.css" })
        XCTAssertTrue(String(decoding: css.bytes, as: UTF8.self).contains(".biqli-offscreen"))
    }

    func testScriptCopiesSynchronouslyBeforeAnythingAsynchronous() throws {
        let script = try XCTUnwrap(AssetCatalog.all.first { $0.name == "deepview.js" })
        let source = String(decoding: script.bytes, as: UTF8.self)
        let handler = try XCTUnwrap(source.range(of: "addEventListener('click'"))
        let write = try XCTUnwrap(source.range(of: "navigator.clipboard.writeText(handoff)"))
        let navigate = try XCTUnwrap(source.range(of: "window.location.href = store"))
        XCTAssertLessThan(handler.lowerBound, write.lowerBound)
        XCTAssertFalse(source.contains("await"))
        XCTAssertFalse(source.contains("fetch("))
        XCTAssertTrue(source.contains("document.execCommand('copy')"))
        // The navigation lives in `leave`, which only runs after the copy was attempted.
        XCTAssertLessThan(write.lowerBound, source.range(of: "pending.then(")!.lowerBound)
        XCTAssertNotNil(navigate)
    }
}
