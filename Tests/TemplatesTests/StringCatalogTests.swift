import Foundation
import XCTest

@testable import Templates

final class StringCatalogTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "biqli-languages-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func write(_ name: String, _ json: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func testBuiltInTablesAreCompleteWithTheSamePlaceholders() {
        XCTAssertEqual(StringCatalog.builtIn.languages, ["en", "es", "fr", "de", "pt", "ja"])
        for (language, table) in BuiltInStrings.all {
            for key in StringKey.allCases {
                let text = table[key]
                XCTAssertFalse(text?.isEmpty ?? true, "\(language) \(key.rawValue)")
                XCTAssertEqual(
                    StringCatalog.placeholders(in: text ?? ""),
                    StringCatalog.placeholders(in: BuiltInStrings.english[key] ?? ""), "\(language) \(key.rawValue)")
            }
        }
    }

    func testOperatorOverridesSomeKeysOfABuiltInLanguage() throws {
        try write("de.json", #"{"deepview.continue": "Los geht’s"}"#)
        let pages = Pages(strings: try StringCatalog.loading(directory: directory))
        let text = pages.deepView(Fixtures.deepView(), acceptLanguage: "de").text
        XCTAssertTrue(text.contains(">Los geht’s</a>"))
        XCTAssertTrue(text.contains("bittet dich Acme Recipes"))
    }

    func testOperatorAddsALanguageThatFallsBackToEnglishPerKey() throws {
        try write("it.json", #"{"deepview.continue": "Continua", "notFound.title": "Link non trovato"}"#)
        try write("README.txt", "ignored")
        let catalog = try StringCatalog.loading(directory: directory)
        XCTAssertTrue(catalog.languages.contains("it"))
        XCTAssertEqual(catalog.negotiate(acceptLanguage: "it-IT, en;q=0.5"), "it")
        let pages = Pages(strings: catalog)
        let deepView = pages.deepView(Fixtures.deepView(), acceptLanguage: "it").text
        XCTAssertTrue(deepView.contains("<html lang=\"it\" dir=\"ltr\">"))
        XCTAssertTrue(deepView.contains(">Continua</a>"))
        XCTAssertTrue(deepView.contains("Continue copies a link"))
        XCTAssertTrue(pages.notFound(acceptLanguage: "it").text.contains("<h1>Link non trovato</h1>"))
    }

    func testRegionalFileAndRightToLeftDefault() throws {
        try write("pt-BR.json", #"{"deepview.continue": "Bora"}"#)
        try write("ar.json", #"{"deepview.continue": "متابعة"}"#)
        let catalog = try StringCatalog.loading(directory: directory)
        XCTAssertEqual(catalog.negotiate(acceptLanguage: "pt-BR"), "pt-br")
        XCTAssertEqual(catalog.negotiate(acceptLanguage: "pt-PT"), "pt")
        let arabic = Pages(strings: catalog).deepView(Fixtures.deepView(), acceptLanguage: "ar").text
        XCTAssertTrue(arabic.contains("<html lang=\"ar\" dir=\"rtl\">"))
    }

    func testOperatorTextIsEscapedLikeAnyOtherText() throws {
        try write("en.json", #"{"deepview.continue": "<script>alert(1)</script>"}"#)
        let text = Pages(strings: try StringCatalog.loading(directory: directory))
            .deepView(Fixtures.deepView(), acceptLanguage: nil).text
        XCTAssertTrue(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;</a>"))
        TagScanner.assertInert(text)
    }

    func testRefusesBadFilesWithPreciseErrors() throws {
        let cases: [(String, String, StringCatalogError)] = [
            ("de.json", #"{"deepview.contineu": "x"}"#, .unknownKey(file: "de.json", key: "deepview.contineu")),
            ("de.json", #"{"deepview.continue": 1}"#, .invalidValue(file: "de.json", key: "deepview.continue")),
            ("de.json", #"{"deepview.continue": ""}"#, .invalidValue(file: "de.json", key: "deepview.continue")),
            ("de.json", #"["x"]"#, .invalidJSON(file: "de.json")),
            ("de.json", #"{"a": "#, .invalidJSON(file: "de.json")),
            (
                "de.json", #"{"deepview.continue": "{user}"}"#,
                .unknownPlaceholder(file: "de.json", key: "deepview.continue")
            ),
            ("de.json", #"{"direction": "up"}"#, .invalidDirection(file: "de.json")),
            ("d e.json", #"{}"#, .invalidLanguageTag(file: "d e.json")),
            ("1.json", #"{}"#, .invalidLanguageTag(file: "1.json")),
        ]
        for (name, json, expected) in cases {
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try write(name, json)
            XCTAssertThrowsError(try StringCatalog.loading(directory: directory), name + " " + json) { error in
                XCTAssertEqual(error as? StringCatalogError, expected)
            }
        }
    }

    func testRefusesAMissingDirectory() {
        XCTAssertThrowsError(try StringCatalog.loading(directory: directory + "/missing")) { error in
            XCTAssertEqual(error as? StringCatalogError, .unreadableDirectory(directory + "/missing"))
        }
    }

    func testErrorMessagesDoNotEchoFileContents() throws {
        try write("de.json", #"{"deepview.continue": "{secret-value}"}"#)
        XCTAssertThrowsError(try StringCatalog.loading(directory: directory)) { error in
            XCTAssertFalse(String(describing: error).contains("secret-value"))
        }
    }
}
