import XCTest

@testable import Visit

/// `Accept-Language`'s preferred tag and the BCP 47 prefix match of `languages` rules.
final class LanguagePreferenceTests: XCTestCase {
    private func preferred(_ header: String?) -> String? {
        LanguagePreference.preferred(header.map { $0[...] }).map(String.init)
    }

    func testTheFirstWithTheHighestQWins() {
        XCTAssertEqual(preferred("pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7"), "pt-BR")
        XCTAssertEqual(preferred("en;q=0.5, fr;q=0.9, de;q=0.9"), "fr")
        XCTAssertEqual(preferred("en;q=0.5,ja"), "ja")
        XCTAssertEqual(preferred(" de-CH ; q=1.000 , en"), "de-CH")
        XCTAssertEqual(preferred("es;Q=0.3"), "es")
    }

    func testZeroAndWildcardNameNoLanguage() {
        XCTAssertNil(preferred("fr;q=0"))
        XCTAssertNil(preferred("*"))
        XCTAssertEqual(preferred("*, fr;q=0.5"), "fr")
        XCTAssertNil(preferred(nil))
        XCTAssertNil(preferred(""))
    }

    func testMalformedEntriesAreSkipped() {
        XCTAssertEqual(preferred("fr;q=2, de;q=abc, 12, en-;q=1, -x, ja;q=0.8"), "ja")
        XCTAssertEqual(preferred("toolongtag-x,es"), "es")
        XCTAssertEqual(preferred("en;q=1.001,it;q=0.1"), "it")
        XCTAssertEqual(preferred(",,, nl ,"), "nl")
    }

    func testAHostileHeaderIsReadOnlyToItsBounds() {
        // 1,000 entries: only the first 32 count, so the q=1 tag at the end is never seen.
        let header = Array(repeating: "en;q=0.1", count: 1_000).joined(separator: ",") + ",ja"
        XCTAssertEqual(preferred(header), "en")
        let filler = String(repeating: " ", count: LanguagePreference.maxScannedBytes) + ",fr"
        XCTAssertNil(preferred(filler))
        let entries = (0..<(LanguagePreference.maxEntries - 1)).map { _ in "x;q=0.1" }
        XCTAssertEqual(preferred((entries + ["fr"]).joined(separator: ",")), "fr")
        XCTAssertEqual(preferred((entries + ["x", "fr"]).joined(separator: ",")), "x")
    }

    func testAPrefixCoversItsSubtagsIgnoringCase() {
        XCTAssertTrue(LanguagePreference.matches(range: "pt", tag: "pt-BR"))
        XCTAssertTrue(LanguagePreference.matches(range: "pt", tag: "PT"))
        XCTAssertTrue(LanguagePreference.matches(range: "PT-br", tag: "pt-BR"))
        XCTAssertTrue(LanguagePreference.matches(range: "zh-Hant", tag: "zh-Hant-TW"))
        XCTAssertFalse(LanguagePreference.matches(range: "pt-BR", tag: "pt"))
        XCTAssertFalse(LanguagePreference.matches(range: "pt-BR", tag: "pt-PT"))
        XCTAssertFalse(LanguagePreference.matches(range: "pt", tag: "ptx"))
        XCTAssertFalse(LanguagePreference.matches(range: "", tag: "pt"))
    }
}
