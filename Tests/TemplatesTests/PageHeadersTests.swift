import Foundation
import HTTPMessages
import XCTest

@testable import Templates

final class PageHeadersTests: XCTestCase {
    func testEveryPageSendsTheRequiredHeaders() {
        for (name, page) in Fixtures.everyPage() {
            XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8", name)
            XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff", name)
            XCTAssertEqual(page.header("Referrer-Policy"), "no-referrer", name)
            XCTAssertEqual(page.header("Cache-Control"), "no-store", name)
            XCTAssertEqual(page.header("Content-Language"), "en", name)
            let csp = page.header("Content-Security-Policy") ?? ""
            for directive in [
                "default-src 'none'", "style-src 'self'", "img-src 'self' https: data:", "base-uri 'none'",
                "form-action 'none'", "frame-ancestors 'none'",
            ] {
                XCTAssertTrue(csp.contains(directive), "\(name): \(directive)")
            }
            XCTAssertFalse(csp.contains("unsafe-inline"), name)
            XCTAssertFalse(csp.contains("unsafe-eval"), name)
            XCTAssertEqual(page.headers.filter { $0.name == "Content-Security-Policy" }.count, 1, name)
        }
    }

    func testDeepViewScriptCarriesTheNonceOfItsOwnPolicy() throws {
        let page = Pages().deepView(Fixtures.deepView(), acceptLanguage: nil)
        let nonce = try XCTUnwrap(Self.nonce(in: page))
        let scripts = try TagScanner.scan(page.text).filter { $0.name == "script" }
        XCTAssertEqual(scripts.count, 1)
        for script in scripts {
            XCTAssertEqual(script.attribute("nonce"), nonce)
            XCTAssertNotNil(script.attribute("src"))
        }
        XCTAssertEqual(page.text.occurrences(of: "<script"), 1)
        XCTAssertEqual(page.text.occurrences(of: nonce), 1)
    }

    func testNonceIsFreshPerRenderAndAtLeast128Bits() throws {
        var seen: Set<String> = []
        for _ in 0..<200 {
            let page = Pages().deepView(Fixtures.deepView(), acceptLanguage: nil)
            let nonce = try XCTUnwrap(Self.nonce(in: page))
            XCTAssertGreaterThanOrEqual(nonce.count * 6, 128)
            XCTAssertTrue(nonce.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            seen.insert(nonce)
        }
        XCTAssertEqual(seen.count, 200)
    }

    func testPagesWithoutScriptForbidAllScripts() {
        for (name, page) in Fixtures.everyPage() where name != "deepView" {
            XCTAssertTrue(page.header("Content-Security-Policy")?.contains("script-src 'none'") ?? false, name)
            XCTAssertFalse(page.text.contains("<script"), name)
        }
    }

    func testEveryPageIsInertAndWellFormed() {
        for (name, page) in Fixtures.everyPage() {
            let text = page.text
            TagScanner.assertInert(text)
            XCTAssertTrue(text.hasPrefix("<!doctype html>\n<html lang=\"en\" dir=\"ltr\">"), name)
            XCTAssertTrue(text.contains("<meta name=\"viewport\" content=\"width=device-width"), name)
            XCTAssertTrue(text.contains("<meta name=\"color-scheme\" content=\"light dark\">"), name)
            XCTAssertEqual(text.occurrences(of: "<h1"), 1, name)
            XCTAssertEqual(text.occurrences(of: "<main"), 1, name)
        }
    }

    /// The nonce from the page's policy header.
    static func nonce(in page: HTTPResponse) -> String? {
        guard let csp = page.header("Content-Security-Policy"), let start = csp.range(of: "'nonce-") else {
            return nil
        }
        let rest = csp[start.upperBound...]
        return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }
}
