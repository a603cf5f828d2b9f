import Core
import Model
import XCTest

@testable import Templates

final class DeepViewTemplateTests: XCTestCase {
    func testATemplateRendersExactlyWhatTheFullRendererDoes() throws {
        let pages = Pages()
        for language in ["en", "ja", "de-DE,de;q=0.9"] {
            for model in [
                Fixtures.deepView(), Fixtures.deepView(link: Fixtures.link(title: Fixtures.hostile[0])),
            ] {
                let template = try XCTUnwrap(pages.deepViewTemplate(model, acceptLanguage: language))
                let nonce = CSPNonce.fresh()
                let filled = template.render(token: Fixtures.token, nonce: nonce)
                let direct = DeepViewPage.render(
                    model, strings: pages.strings.strings(acceptLanguage: language), nonce: nonce)
                XCTAssertEqual(filled.status, direct.status)
                XCTAssertEqual(filled.body, direct.body, language)
                XCTAssertEqual(filled.headers.map(\.name), direct.headers.map(\.name))
                XCTAssertEqual(filled.headers.map(\.value), direct.headers.map(\.value))
            }
        }
    }

    func testHeaderPartsAroundTheNonce() {
        let cut = DeepViewTemplate.parts(of:around:)
        XCTAssertEqual(
            cut("script-src 'nonce-N'; style-src 'nonce-N'", "N"), ["script-src 'nonce-", "'; style-src 'nonce-", "'"])
        XCTAssertEqual(cut("NN", "N"), ["", "", ""])
        XCTAssertEqual(cut("default-src 'none'", "N"), ["default-src 'none'"])
        XCTAssertEqual(cut("", "N"), [""])
    }

    func testANonceFromGivenBytesIsTheirBase64URL() {
        let bytes = (0..<CSPNonce.byteCount).map { UInt8($0 * 13 & 0xFF) }
        XCTAssertEqual(CSPNonce(randomBytes: bytes).value, Base64URL.encode(bytes))
        XCTAssertEqual(CSPNonce(randomBytes: bytes).value.utf8.count, 24)
    }

    func testEachRenderGetsItsOwnTokenAndNonce() throws {
        let template = try XCTUnwrap(Pages().deepViewTemplate(Fixtures.deepView(), acceptLanguage: nil))
        let other = "bqmh_" + String(repeating: "Q", count: 43)
        let a = template.render(token: Fixtures.token)
        let b = template.render(token: other)
        let textA = String(decoding: a.body, as: UTF8.self)
        let textB = String(decoding: b.body, as: UTF8.self)
        XCTAssertTrue(textA.contains(Fixtures.handoffURL))
        XCTAssertTrue(textB.contains("biqli_token=" + other))
        XCTAssertFalse(textA.contains("SENTINEL") || textB.contains("SENTINEL"))
        XCTAssertNotEqual(a.header("Content-Security-Policy"), b.header("Content-Security-Policy"))
    }
}
