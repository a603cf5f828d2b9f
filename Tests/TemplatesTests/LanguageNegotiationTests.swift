import XCTest

@testable import Templates

final class LanguageNegotiationTests: XCTestCase {
    let available: Set<String> = ["en", "es", "fr", "de", "pt", "ja", "zh-hant"]

    func testNegotiationTable() {
        let table: [(String?, String)] = [
            (nil, "en"),
            ("", "en"),
            ("fr", "fr"),
            ("FR", "fr"),
            ("pt-BR", "pt"),
            ("pt-br,pt;q=0.9,en;q=0.8", "pt"),
            ("de-CH, fr;q=0.9", "de"),
            ("it, es;q=0.5", "es"),
            ("it", "en"),
            ("*", "en"),
            ("it, *;q=0.1", "en"),
            ("en;q=0.1, ja", "ja"),
            ("en;q=0.5, fr;q=0.5", "en"),
            ("fr;q=0.5, en;q=0.5", "fr"),
            ("ja;q=0, fr;q=0.1", "fr"),
            ("ja;q=0", "en"),
            ("en;q=0, *", "de"),
            ("es;q=1.000, fr", "es"),
            ("zh", "zh-hant"),
            ("zh-Hant-TW", "zh-hant"),
            ("de-x-private", "de"),
            ("es;q=abc, fr", "fr"),
            ("es;q=1.5, fr;q=0.2", "fr"),
            ("es;q=0.1234, fr;q=0.2", "fr"),
            ("   ja   ;  q=0.9  ,", "ja"),
            ("123, de", "de"),
            ("e$, fr", "fr"),
            (",,,;;;", "en"),
        ]
        for (header, expected) in table {
            XCTAssertEqual(
                LanguageNegotiation.negotiate(header, available: available), expected, "\(header ?? "nil")")
        }
    }

    func testQualityParsing() {
        XCTAssertEqual(LanguageNegotiation.parseQuality("1"), 1000)
        XCTAssertEqual(LanguageNegotiation.parseQuality("0"), 0)
        XCTAssertEqual(LanguageNegotiation.parseQuality("0.5"), 500)
        XCTAssertEqual(LanguageNegotiation.parseQuality("0.123"), 123)
        XCTAssertEqual(LanguageNegotiation.parseQuality("1.000"), 1000)
        XCTAssertNil(LanguageNegotiation.parseQuality("1.001"))
        XCTAssertNil(LanguageNegotiation.parseQuality("2"))
        XCTAssertNil(LanguageNegotiation.parseQuality(".5"))
        XCTAssertNil(LanguageNegotiation.parseQuality("0.1234"))
        XCTAssertNil(LanguageNegotiation.parseQuality(""))
    }

    func testHugeHeadersAreBounded() {
        let header = String(repeating: "xx-yy;q=0.5, ", count: 5000) + "fr"
        XCTAssertEqual(LanguageNegotiation.negotiate(header, available: available), "en")
        let items = String(repeating: "it, ", count: 40) + "fr"
        XCTAssertEqual(LanguageNegotiation.negotiate(items, available: available), "en")
    }
}
