import Foundation
import Model
import XCTest

@testable import Templates

final class OtherPagesTests: XCTestCase {
    let pages = Pages()

    func testPreviewCarriesOpenGraphAndTwitterTags() throws {
        let model = try XCTUnwrap(LinkPreviewModel(link: Fixtures.link(), app: Fixtures.app()))
        let page = pages.linkPreview(model, acceptLanguage: nil)
        XCTAssertEqual(page.status, 200)
        let metas = try TagScanner.scan(page.text).filter { $0.name == "meta" }
        func content(_ key: String) -> String? {
            metas.first { $0.attribute("property") == key || $0.attribute("name") == key }?.attribute("content")
        }
        XCTAssertEqual(content("og:title"), "Lemon tart")
        XCTAssertEqual(content("og:description"), "A bright, crisp tart for summer evenings.")
        XCTAssertEqual(content("og:image"), "https://cdn.example.com/tart.jpg")
        XCTAssertEqual(content("og:url"), "https://go.example.com/tart")
        XCTAssertEqual(content("og:type"), "website")
        XCTAssertEqual(content("og:site_name"), "Acme Recipes")
        XCTAssertEqual(content("twitter:card"), "summary_large_image")
        XCTAssertEqual(content("twitter:title"), "Lemon tart")
        XCTAssertEqual(content("twitter:description"), "A bright, crisp tart for summer evenings.")
        XCTAssertEqual(content("twitter:image"), "https://cdn.example.com/tart.jpg")
        XCTAssertTrue(
            page.text.contains("<a class=\"button\" href=\"https://acme.example.com/recipes/42\">Open link</a>"))
        XCTAssertFalse(page.text.contains("noindex"))
        XCTAssertFalse(page.text.contains("biqli_token"))
    }

    func testPreviewWithoutImageIsASummaryCard() throws {
        let link = Fixtures.link(title: nil, description: nil, image: nil)
        let page = pages.linkPreview(try XCTUnwrap(LinkPreviewModel(link: link)), acceptLanguage: nil)
        XCTAssertTrue(page.text.contains("<meta name=\"twitter:card\" content=\"summary\">"))
        XCTAssertFalse(page.text.contains("og:image"))
        XCTAssertFalse(page.text.contains("twitter:image"))
        XCTAssertFalse(page.text.contains("og:description"))
        XCTAssertTrue(page.text.contains("<meta property=\"og:title\" content=\"go.example.com\">"))
    }

    func testPreviewLinksOnlyToHTTPSWebDestinations() throws {
        for url in ["http://acme.example.com/x", "javascript:alert(1)", "https://x\" onerror=\"alert(1)"] {
            let model = try XCTUnwrap(LinkPreviewModel(link: Fixtures.link(url: url)))
            let text = pages.linkPreview(model, acceptLanguage: nil).text
            XCTAssertFalse(text.contains("class=\"button\""), url)
            TagScanner.assertInert(text)
        }
    }

    func testPreviewRendersHostileFieldsInert() throws {
        for hostile in Fixtures.hostile {
            let link = Fixtures.link(title: hostile, description: hostile, image: hostile, url: hostile)
            let model = try XCTUnwrap(LinkPreviewModel(link: link, app: Fixtures.app(name: hostile)))
            let text = pages.linkPreview(model, acceptLanguage: nil).text
            TagScanner.assertInert(text)
            XCTAssertFalse(text.contains("<script"), hostile)
            XCTAssertFalse(text.contains("onerror=\""), hostile)
            XCTAssertFalse(text.contains("onmouseover=\""), hostile)
        }
    }

    func testHandoffLandingExplainsTheStepsAndNeverShowsAToken() throws {
        let page = pages.handoffLanding(HandoffLandingModel(app: Fixtures.app()), acceptLanguage: nil)
        XCTAssertEqual(page.status, 200)
        let text = page.text
        XCTAssertTrue(text.contains("<li>Install Acme Recipes.</li>"))
        XCTAssertTrue(text.contains("<li>Open it.</li>"))
        XCTAssertTrue(text.contains("Tap Paste"))
        XCTAssertTrue(text.contains("<a class=\"button\" href=\"\(Fixtures.appStoreURL)\">Open the App Store</a>"))
        XCTAssertFalse(text.contains("bqmh_"))
        XCTAssertFalse(text.contains("biqli_token"))
        XCTAssertTrue(text.contains("noindex"))
    }

    func testHandoffLandingWithoutAKnownAppSpeaksGenerically() {
        let text = pages.handoffLanding(acceptLanguage: "fr").text
        XCTAssertTrue(text.contains("<li>Installez l’app.</li>"))
        XCTAssertFalse(text.contains("class=\"button\""))
        XCTAssertFalse(text.contains("app-icon"))
    }

    func testMessagePagesHaveTheirStatusAndEchoNothing() {
        XCTAssertEqual(pages.notFound(acceptLanguage: nil).status, 404)
        XCTAssertEqual(pages.linkDisabled(acceptLanguage: nil).status, 410)
        XCTAssertEqual(pages.serverError(acceptLanguage: nil).status, 500)
        XCTAssertEqual(pages.domainRoot(acceptLanguage: nil).status, 200)
        XCTAssertTrue(pages.notFound(acceptLanguage: nil).text.contains("<h1>Link not found</h1>"))
        XCTAssertTrue(pages.linkDisabled(acceptLanguage: "es").text.contains("<h1>Este enlace ya no está activo</h1>"))
        XCTAssertTrue(pages.serverError(acceptLanguage: "ja").text.contains("<h1>問題が発生しました</h1>"))
        XCTAssertTrue(pages.domainRoot(acceptLanguage: "pt-BR").text.contains("<html lang=\"pt\" dir=\"ltr\">"))
    }

    func testEveryBuiltInLanguageRendersEveryPage() {
        for language in ["en", "es", "fr", "de", "pt", "ja"] {
            for (name, page) in Fixtures.everyPage(acceptLanguage: language) {
                XCTAssertTrue(page.text.contains("<html lang=\"\(language)\""), "\(language) \(name)")
                XCTAssertEqual(page.header("Content-Language"), language)
                TagScanner.assertInert(page.text)
            }
        }
    }
}
