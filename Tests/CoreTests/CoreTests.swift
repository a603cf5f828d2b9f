import XCTest

@testable import Core

final class JSONParserTests: XCTestCase {
    func testParsesNestedDocumentInOrder() throws {
        let v = try JSONParser.parse(#"{"b":1,"a":[true,null,"x\/y",1.5,-2]}"#)
        XCTAssertEqual(v.objectValue?.map(\.0), ["b", "a"])
        XCTAssertEqual(v["a"], [true, nil, "x/y", 1.5, -2])
    }

    func testRejectsDuplicateKeys() {
        XCTAssertThrowsError(try JSONParser.parse(#"{"a":1,"a":2}"#)) { error in
            XCTAssertEqual(error as? JSONParseError, .duplicateKey("a"))
        }
    }

    func testDepthLimitCountsContainers() throws {
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        XCTAssertNoThrow(try JSONParser.parse(ok, options: .init(maxDepth: 32)))
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        XCTAssertThrowsError(try JSONParser.parse(deep, options: .init(maxDepth: 32))) { error in
            XCTAssertEqual(error as? JSONParseError, .tooDeep(limit: 32))
        }
    }

    func testRejectsTrailingGarbageAndBadLiterals() {
        for text in ["{} x", "tru", "[1,]", "{\"a\" 1}", "01", "1.", "\"\u{01}\"", "\"\\ud800\""] {
            XCTAssertThrowsError(try JSONParser.parse(text), text)
        }
    }

    func testDecodesSurrogatePairs() throws {
        XCTAssertEqual(try JSONParser.parse(#""\ud83d\ude00""#), .string("😀"))
    }

    func testCanonicalBytesIgnoreMemberOrder() throws {
        let a = try JSONParser.parse(#"{"b":{"y":1,"x":2},"a":null}"#)
        let b = try JSONParser.parse(#"{"a":null,"b":{"x":2,"y":1}}"#)
        XCTAssertEqual(a.canonicalBytes, b.canonicalBytes)
        XCTAssertEqual(String(decoding: a.canonicalBytes, as: UTF8.self), #"{"a":null,"b":{"x":2,"y":1}}"#)
    }

    func testWriterEscapesControlCharacters() {
        XCTAssertEqual(JSONValue.string("a\"\\\n\u{01}/").jsonString, #""a\"\\\n\u0001/""#)
    }

    func testIntegersAreWrittenAsDescriptionWouldWriteThem() {
        for value in [0, 7, 10, 99, 100, 1_234_567, -1, -10, Int.max, Int.min] {
            var out: [UInt8] = [UInt8(ascii: "x")]
            JSONWriter.writeInteger(value, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "x\(value)")
        }
        XCTAssertEqual(JSONValue.int(Int64.min).jsonString, "\(Int64.min)")
    }

    func testByteStringsAreEscapedLikeStrings() {
        let text = "plain \u{7F}\t\"é\\"
        var fromBytes: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &fromBytes) }
        XCTAssertEqual(fromBytes, JSONValue.string(text).jsonBytes)
        XCTAssertEqual(String(decoding: fromBytes, as: UTF8.self), #""plain \u007f\t\"é\\""#)
    }
}

final class Base64URLTests: XCTestCase {
    func testTheAlphabetCheckAgreesWithTheDigitTableForEveryByte() {
        for byte in UInt8.min...UInt8.max {
            let one = [byte].withUnsafeBufferPointer { Base64URL.isAlphabet($0) }
            XCTAssertEqual(one, Base64URL.digitValue(byte) >= 0, "byte \(byte)")
            XCTAssertEqual(Base64URL.isAlphabet(Substring("Ab_-9" + String(UnicodeScalar(byte)))), one, "byte \(byte)")
        }
        XCTAssertTrue([UInt8]().withUnsafeBufferPointer { Base64URL.isAlphabet($0) })
    }

    func testRoundTripsAllLengths() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64URL.encode(bytes)
            XCTAssertFalse(text.contains("="))
            XCTAssertEqual(Base64URL.decode(text), bytes)
        }
        XCTAssertEqual(Base64URL.encode(Array(repeating: 0xFF, count: 32)).count, 43)
    }

    func testAppendWritesWhatEncodeReturnsAfterExistingBytes() {
        for n in [0, 1, 2, 3, 64, 700, 2_000] {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 7) }
            var out = Array("x.".utf8)
            Base64URL.append(bytes, to: &out)
            XCTAssertEqual(out, Array(("x." + Base64URL.encode(bytes)).utf8), "\(n) bytes")
            XCTAssertEqual(out.count - 2, Base64URL.encodedCount(n))
        }
    }

    func testRejectsForeignCharactersAndNonCanonicalTails() {
        XCTAssertNil(Base64URL.decode("ab+c"))
        XCTAssertNil(Base64URL.decode("abc="))
        XCTAssertNil(Base64URL.decode("a"))
        XCTAssertNil(Base64URL.decode("AB"))  // "AB" leaves non-zero spare bits
        XCTAssertEqual(Base64URL.decode("AA"), [0])
    }
}

final class ULIDTests: XCTestCase {
    func testEncodesTimeThenRandomness() {
        let id = ULID.make(milliseconds: 1_469_918_176_385, random: (0, 0))
        XCTAssertEqual(id, "01ARYZ6S410000000000000000")
        XCTAssertEqual(ULID.milliseconds(id[...]), 1_469_918_176_385)
    }

    func testThePrefixedFormIsThePrefixThenTheSameULID() {
        let random: (UInt64, UInt64) = (0xBEEF, 0x0123_4567_89AB_CDEF)
        let bare = ULID.make(milliseconds: 1_469_918_176_385, random: random)
        XCTAssertEqual(bare, "01ARYZ6S41QVQG28T5CY4TQKFF")  // Python: base32 of (t << 80) | r
        XCTAssertEqual(
            ULID.make(prefix: "biq_clk_", milliseconds: 1_469_918_176_385, random: random), "biq_clk_" + bare)
        let made = Identifier.make(Identifier.clickPrefix)
        XCTAssertTrue(Identifier.isValid(made, prefix: Identifier.clickPrefix), made)
        XCTAssertEqual(made.utf8.count, 8 + 26)
    }

    func testIdsMadeInOneMillisecondSortInCreationOrder() {
        let ids = (0..<1000).map { _ in ULID.make(milliseconds: 1_790_000_000_000) }
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(Set(ids).count, ids.count)
        let earlier = ULID.make(milliseconds: 1_700_000_000_000)  // a clock that stepped back
        XCTAssertGreaterThan(earlier, ids.last!)
    }

    func testALoopsOwnSequenceSortsInCreationOrderToo() {
        var generator = ULIDGenerator()
        let ids = (0..<1000).map { _ in generator.make(prefix: "biq_clk_", milliseconds: 1_790_000_000_000) }
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(Set(ids).count, ids.count)
        XCTAssertTrue(ids.allSatisfy { Identifier.isValid($0, prefix: Identifier.clickPrefix) })
        XCTAssertEqual(ULID.milliseconds(ids[0].dropFirst(8)), 1_790_000_000_000)
        let later = generator.make(prefix: "", milliseconds: 1_790_000_000_001)
        XCTAssertEqual(ULID.milliseconds(later[...]), 1_790_000_000_001)
    }

    func testGeneratedIdsAreValidAndDistinct() {
        let a = ULID.make()
        let b = ULID.make()
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(ULID.isValid(a[...]))
        XCTAssertTrue(Identifier.isValid("biq_mapp_" + a, prefix: Identifier.mobileAppPrefix))
        XCTAssertFalse(ULID.isValid("01ARZ3NDEKTSV4RRFFQ69G5FAI"))  // I is not Crockford
        XCTAssertFalse(ULID.isValid("81ARZ3NDEKTSV4RRFFQ69G5FAV"))  // overflows 128 bits
    }
}

final class TimestampTests: XCTestCase {
    func testFormatsAndParsesUTC() {
        XCTAssertEqual(Timestamp.format(seconds: 1_790_512_200), "2026-09-27T12:30:00Z")
        XCTAssertEqual(Timestamp.parse("2026-09-27T12:30:00Z"), 1_790_512_200_000)
        XCTAssertEqual(Timestamp.parse("2026-09-27T12:30:00.123Z"), 1_790_512_200_123)
        XCTAssertEqual(Timestamp.parse("2026-09-27T14:30:00+02:00"), 1_790_512_200_000)
        XCTAssertEqual(Timestamp.format(milliseconds: 1_790_512_200_123), "2026-09-27T12:30:00.123Z")
    }

    func testRejectsImpossibleDates() {
        for text in [
            "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-09-27 12:30:00Z", "2026-09-27T12:30:00",
            "2026-13-01T00:00:00Z", "2026-09-27T24:00:00Z",
        ] {
            XCTAssertNil(Timestamp.parse(text), text)
        }
        XCTAssertNotNil(Timestamp.parse("2024-02-29T00:00:00Z"))
    }
}
