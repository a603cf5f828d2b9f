import Model
import XCTest

@testable import Templates

/// The Deep View's in-app part (issue 36 item 4, decision 0033 §4): after Continue, a
/// heading that names the app's browser, then Safari (a link to `x-safari-https:`, else
/// the menu steps) and the app through the alternate domain, each only when given; the
/// page of every other visitor stays as it was.
final class DeepViewInAppTests: XCTestCase {
    let pages = Pages()
    static let safari = SafeURL("https://go.example.com/tart?ref=ig&bq_ia=1")!
    static let alternate = SafeURL("https://open.example.com/tart?ref=ig")!

    private func page(_ inApp: DeepViewInApp?, language: String? = "en", app: MobileApp = Fixtures.app()) -> String {
        var model = Fixtures.deepView(app: app)
        model.inApp = inApp
        return pages.deepView(model, acceptLanguage: language).text
    }

    private func tags(_ text: String) throws -> [ScannedTag] { try TagScanner.scan(text) }

    func testEverythingOfferedComesAfterContinueInOrder() throws {
        let text = page(DeepViewInApp(browserName: "Instagram", safariURL: Self.safari, appURL: Self.alternate))
        let links = try tags(text).filter { $0.name == "a" }
        XCTAssertEqual(links.map { $0.attribute("id") }, ["biqli-continue", "biqli-safari", "biqli-app"])
        XCTAssertEqual(links[0].attribute("href"), Fixtures.appStoreURL)
        XCTAssertEqual(links[0].attribute("class"), "button")
        XCTAssertEqual(links[1].attribute("href"), "x-safari-https://go.example.com/tart?ref=ig&amp;bq_ia=1")
        XCTAssertEqual(links[1].attribute("class"), "button secondary")
        XCTAssertEqual(links[2].attribute("href"), "https://open.example.com/tart?ref=ig")
        XCTAssertTrue(
            text.contains(
                "<h2 id=\"biqli-in-app\" class=\"in-app-title\" dir=\"auto\">You’re in Instagram’s browser</h2>"))
        XCTAssertTrue(text.contains(">Open in Safari</a>"))
        XCTAssertTrue(text.contains(">Open in Acme Recipes</a>"))
        XCTAssertFalse(text.contains("biqli-steps"))
        // The handoff still rides once, on Continue only.
        XCTAssertEqual(text.occurrences(of: Fixtures.handoffURL), 1)
        XCTAssertEqual(text.occurrences(of: "biqli_token"), 1)
    }

    func testWithoutTheSafariLinkTheStepsOfTheAppsMenu() throws {
        let menu = page(DeepViewInApp(browserName: "Instagram", steps: .ellipsisMenu))
        XCTAssertTrue(
            menu.contains("<p id=\"biqli-steps\" class=\"note\">To open this page in Safari, tap ⋯ at the top"))
        XCTAssertFalse(menu.contains("x-safari"))
        let generic = page(DeepViewInApp(browserName: "Snapchat", steps: .appMenu))
        XCTAssertTrue(
            generic.contains("<p id=\"biqli-steps\" class=\"note\">To open this page in Safari, open the app’s menu"))
        XCTAssertEqual(try tags(generic).filter { $0.name == "a" }.map { $0.attribute("id") }, ["biqli-continue"])
    }

    func testEachEscapeOffLeavesTheHeadingAndContinue() throws {
        let bare = page(DeepViewInApp(browserName: "TikTok"))
        XCTAssertTrue(bare.contains(">You’re in TikTok’s browser</h2>"))
        XCTAssertFalse(bare.contains("biqli-steps"))
        XCTAssertEqual(try tags(bare).filter { $0.name == "a" }.map { $0.attribute("id") }, ["biqli-continue"])
        let appOnly = page(DeepViewInApp(browserName: "TikTok", appURL: Self.alternate))
        XCTAssertEqual(
            try tags(appOnly).filter { $0.name == "a" }.map { $0.attribute("id") }, ["biqli-continue", "biqli-app"])
    }

    func testAnUnnamedAppsBrowserGetsTheGenericHeading() {
        XCTAssertTrue(page(DeepViewInApp(browserName: nil)).contains(">You’re in an app’s browser</h2>"))
    }

    func testOnlyTheInAppPageLinksItsStylesheet() throws {
        let css = try XCTUnwrap(AssetCatalog.url(for: "inapp.css"))
        XCTAssertTrue(page(DeepViewInApp(browserName: "LINE")).contains("<link rel=\"stylesheet\" href=\"\(css)\">"))
    }

    /// Every other visitor's page, rendered or filled from the cached template, has no
    /// trace of the part (the black-box tests compare a regular page with the last release's).
    func testARegularVisitorsPageHasNoTraceOfThePart() throws {
        let template = try XCTUnwrap(pages.deepViewTemplate(Fixtures.deepView(), acceptLanguage: "en"))
        let filled = String(decoding: template.render(token: Fixtures.token).body, as: UTF8.self)
        for text in [page(nil), filled] {
            for trace in ["inapp", "in-app", "x-safari", "biqli-safari", "biqli-app", "biqli-steps", "<h2", "bq_ia"] {
                XCTAssertFalse(text.contains(trace), trace)
            }
        }
    }

    func testHostileAppNamesStayText() {
        for hostile in Fixtures.hostile {
            let text = page(
                DeepViewInApp(browserName: hostile, safariURL: Self.safari, appURL: Self.alternate),
                app: Fixtures.app(name: hostile))
            TagScanner.assertInert(text)
            XCTAssertFalse(text.contains("<script>alert"), hostile)
        }
        XCTAssertTrue(page(DeepViewInApp(browserName: "{app} <b>")).contains("You’re in {app} &lt;b&gt;’s browser"))
    }

    func testSpeaksEachLanguageOfThePage() {
        let inApp = DeepViewInApp(browserName: "Instagram", safariURL: Self.safari, appURL: Self.alternate)
        let expected = [
            ("es", "Estás en el navegador de Instagram", "Abrir en Safari", "Abrir en Acme Recipes"),
            ("fr", "Vous êtes dans le navigateur de l’app Instagram", "Ouvrir dans Safari", "Ouvrir dans Acme Recipes"),
            ("de", "Du bist im Browser von Instagram", "In Safari öffnen", "In Acme Recipes öffnen"),
            ("pt", "Você está no navegador do app Instagram", "Abrir no Safari", "Abrir no Acme Recipes"),
            ("ja", "Instagramのアプリ内ブラウザで表示しています", "Safariで開く", "Acme Recipesで開く"),
        ]
        for (language, title, safari, app) in expected {
            let text = page(inApp, language: language)
            XCTAssertTrue(text.contains(">\(title)</h2>"), language)
            XCTAssertTrue(text.contains(">\(safari)</a>"), language)
            XCTAssertTrue(text.contains(">\(app)</a>"), language)
        }
    }
}
