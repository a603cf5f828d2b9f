import Foundation
import XCTest

@testable import Templates

/// Renders one of each page in every built-in language and checks them all. With
/// `BIQLI_RENDER_DIR` set, also writes them there (pages as `<name>.<lang>.html` plus
/// `<name>.<lang>.headers`, assets under `_biqli/assets/`) for screenshots and browser checks.
final class SamplePagesTests: XCTestCase {
    func testSamplePagesRenderInEveryLanguage() throws {
        let directory = ProcessInfo.processInfo.environment["BIQLI_RENDER_DIR"]
        for language in ["en", "es", "fr", "de", "pt", "ja"] {
            var pages = Fixtures.everyPage(acceptLanguage: language)
            let testFlight = Fixtures.app(
                icon: nil, appStoreId: nil, testFlight: "https://testflight.apple.com/join/AbC123")
            let plain = Fixtures.link(title: nil, description: nil, image: nil)
            pages.append(
                (
                    "deepViewPlain",
                    Pages().deepView(Fixtures.deepView(app: testFlight, link: plain), acceptLanguage: language)
                ))
            for (name, page) in pages {
                TagScanner.assertInert(page.text)
                XCTAssertTrue(page.text.contains("<html lang=\"\(language)\""), name)
                guard let directory else { continue }
                let base = URL(fileURLWithPath: directory)
                try Data(page.body).write(to: base.appendingPathComponent("\(name).\(language).html"))
                let headers = (["\(page.status)"] + page.headers.map { "\($0.name): \($0.value)" }).joined(
                    separator: "\n")
                try Data(headers.utf8).write(to: base.appendingPathComponent("\(name).\(language).headers"))
            }
        }
        if let directory {
            let assets = URL(fileURLWithPath: directory).appendingPathComponent("_biqli/assets")
            try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
            for asset in AssetCatalog.all {
                try Data(asset.bytes).write(to: assets.appendingPathComponent(asset.hashedName))
            }
        }
    }
}
