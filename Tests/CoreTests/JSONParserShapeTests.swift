import XCTest

@testable import Core

/// The parser's rules hold whatever the document's shape (issue 33): a repeated key is
/// refused in an object of any size, on either side of the size where the check changes
/// from a scan to a set; the value budget counts every value; `\u` escapes decode to the
/// same text as before.
final class JSONParserShapeTests: XCTestCase {
    private func object(_ keys: [String]) -> String {
        "{" + keys.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
    }

    func testARepeatedKeyIsRefusedInAnObjectOfAnySize() {
        let edge = JSONParser.keysScannedInPlace
        for count in [1, 2, edge - 1, edge, edge + 1, 2 * edge, 10_000] {
            let keys = (0..<count).map { "key\($0)" }
            XCTAssertEqual(try JSONParser.parse(object(keys)).objectValue?.map(\.0), keys, "\(count) keys")
            // The first key, one from the middle and the last, repeated last and right after themselves.
            for repeated in Set([keys[0], keys[count / 2], keys[count - 1]]) {
                XCTAssertThrowsError(try JSONParser.parse(object(keys + [repeated])), "\(count): \(repeated)") {
                    XCTAssertEqual($0 as? JSONParseError, .duplicateKey(repeated))
                }
                var early = keys
                early.insert(repeated, at: keys.firstIndex(of: repeated)! + 1)
                XCTAssertThrowsError(try JSONParser.parse(object(early + ["after"])), "\(count): \(repeated)") {
                    XCTAssertEqual($0 as? JSONParseError, .duplicateKey(repeated))
                }
            }
        }
    }

    func testARepeatedKeyIsFoundInEveryObjectOfALargeDocument() {
        let big = object((0..<500).map { "k\($0)" })
        let nested = "{\"a\":\(big),\"b\":[\(big),{\"x\":1,\"x\":2}]}"
        XCTAssertThrowsError(try JSONParser.parse(nested)) { XCTAssertEqual($0 as? JSONParseError, .duplicateKey("x")) }
        // The same key in sibling objects is no repeat.
        XCTAssertNoThrow(try JSONParser.parse("{\"a\":\(big),\"b\":\(big)}"))
    }

    func testKeysThatSwiftCallsEqualAreARepeatAtEverySize() {
        // "é" precomposed and as "e" + combining acute: one String to Swift, so one key,
        // whether the object is scanned or hashed.
        for count in [1, JSONParser.keysScannedInPlace + 5] {
            let keys = (0..<count).map { "k\($0)" } + ["\u{E9}"]
            XCTAssertThrowsError(try JSONParser.parse(object(keys + ["e\u{301}"])), "\(count)") {
                XCTAssertEqual($0 as? JSONParseError, .duplicateKey("e\u{301}"))
            }
        }
    }

    func testRepeatsAreKeptWhenTheCallerAllowsThem() throws {
        let keys = (0..<40).map { "k\($0)" }
        let options = JSONParser.Options(rejectDuplicateKeys: false)
        let value = try JSONParser.parse(object(keys + ["k3", "k39"]), options: options)
        XCTAssertEqual(value.objectValue?.count, 42)
        XCTAssertEqual(value["k3"], 0)
    }

    func testTheValueBudgetCountsEveryValueAndTheDocument() throws {
        // {"a":[1,2,{"b":null}]}: the object, the array, 1, 2, the inner object, null.
        let text = #"{"a":[1,2,{"b":null}]}"#
        XCTAssertNoThrow(try JSONParser.parse(text, options: .init(maxValues: 6)))
        XCTAssertThrowsError(try JSONParser.parse(text, options: .init(maxValues: 5))) {
            XCTAssertEqual($0 as? JSONParseError, .tooManyValues(limit: 5))
        }
        let wide = "[" + Array(repeating: "0", count: 4_095).joined(separator: ",") + "]"
        XCTAssertEqual(try JSONParser.parse(wide, options: .init(maxValues: 4_096)).arrayValue?.count, 4_095)
        XCTAssertThrowsError(try JSONParser.parse(wide, options: .init(maxValues: 4_095))) {
            XCTAssertEqual($0 as? JSONParseError, .tooManyValues(limit: 4_095))
        }
        XCTAssertNoThrow(try JSONParser.parse(wide))  // no budget by default
    }

    func testUnicodeEscapesDecodeToTheirScalarsAtEveryWidth() throws {
        let cases: [(String, String)] = [
            (#"\u0041"#, "A"), (#"\u0000"#, "\u{0}"), (#"\u007f"#, "\u{7F}"), (#"\u0080"#, "\u{80}"),
            (#"\u00e9"#, "é"), (#"\u07ff"#, "\u{7FF}"), (#"\u0800"#, "\u{800}"), (#"\u20AC"#, "€"),
            (#"\uffff"#, "\u{FFFF}"), (#"\ud800\udc00"#, "\u{10000}"), (#"\ud83d\ude00"#, "😀"),
            (#"\udbff\udfff"#, "\u{10FFFF}"), (#"a\u00e9b\n\u20acc"#, "aéb\n€c"),
        ]
        for (escaped, text) in cases {
            XCTAssertEqual(try JSONParser.parse("\"\(escaped)\""), .string(text), escaped)
        }
        let long = String(repeating: #"\u00e9\ud83d\ude00"#, count: 2_000)
        XCTAssertEqual(try JSONParser.parse("\"\(long)\""), .string(String(repeating: "é😀", count: 2_000)))
        for bad in [#""\udc00""#, #""\ud800x""#, #""\ud800\u0041""#, #""\u12""#, #""\u12g4""#] {
            XCTAssertThrowsError(try JSONParser.parse(bad), bad)
        }
    }

    func testRawBytesMustBeUTF8WithOrWithoutEscapes() throws {
        let quote = UInt8(ascii: "\"")
        for raw: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0x61, 0x80]] {
            for escaped in [false, true] {
                let bytes = [quote] + (escaped ? Array(#"\n\u00e9"#.utf8) : []) + raw + [quote]
                XCTAssertThrowsError(try JSONParser.parse(bytes), "\(raw) \(escaped)") {
                    XCTAssertEqual($0 as? JSONParseError, .invalidUTF8)
                }
            }
        }
        let mixed = [quote] + Array("é\\n€\\u00e9😀".utf8) + [quote]
        XCTAssertEqual(try JSONParser.parse(mixed), .string("é\n€é😀"))
        XCTAssertEqual(try JSONParser.parse([quote] + Array("plain é".utf8) + [quote]), .string("plain é"))
    }
}
