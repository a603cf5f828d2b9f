import HTTPMessages
import XCTest

@testable import HTTP

/// The byte classes behind the parser, checked against the grammar's own definitions.
final class ParserSyntaxTests: XCTestCase {
    func testTokenCharMasksMatchRFC9110() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for c in 0...255 {
            XCTAssertEqual(HTTPSyntax.isTokenChar(UInt8(c)), tchar.contains(UInt8(c)), "byte \(c)")
        }
    }

    func testFieldValueCharsAreVisibleObsTextSpaceAndTab() {
        for c in 0...255 {
            let expected = c == 0x09 || (c >= 0x20 && c <= 0x7E) || c >= 0x80
            XCTAssertEqual(HTTPSyntax.isFieldValueChar(UInt8(c)), expected, "byte \(c)")
        }
    }

    func testHexValues() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        let values = Array(0...15) + Array(10...15)
        for (d, v) in zip(digits, values) { XCTAssertEqual(HTTPSyntax.hexValue(d), v) }
        for c in 0...255 where !digits.contains(UInt8(c)) { XCTAssertEqual(HTTPSyntax.hexValue(UInt8(c)), -1, "\(c)") }
    }

    func testTransferCodingClassification() {
        let cases: [(String, HTTPFieldRules.TransferCoding)] = [
            ("chunked", .chunked), ("CHUNKED", .chunked), ("gzip", .unsupported), ("gzip, chunked", .unsupported),
            ("chunked;a=\"b, c\"", .unsupported), (" , chunked", .unsupported), ("chunked , ", .unsupported),
            ("", .invalid), (",", .invalid), ("chunked;", .invalid), ("chunked;a=", .invalid), ("a b", .invalid),
            ("chunked;a=\"b", .invalid), ("@", .invalid),
        ]
        for (value, expected) in cases {
            let bytes = Array(value.utf8)
            let got = bytes.withUnsafeBytes {
                HTTPFieldRules.transferCoding($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, 0, bytes.count)
            }
            XCTAssertEqual(got, expected, value)
        }
    }
}

final class ParserHostSyntaxTests: XCTestCase {
    func testUnreservedMasksMatchRFC3986() {
        let unreserved = Set("-._~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for c in 0...255 {
            XCTAssertEqual(HTTPFieldRules.isUnreserved(UInt8(c)), unreserved.contains(UInt8(c)), "byte \(c)")
        }
    }

    func testLowercasedASCIIWordLowersOnlyLetters() {
        let ascii = (0..<128).map { UInt8($0) }
        for chunk in stride(from: 0, to: 128, by: 8) {
            let word = ascii[chunk..<(chunk + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            var lowered = HTTPSyntax.lowercasedASCII(word)
            let bytes = withUnsafeBytes(of: &lowered) { Array($0) }
            XCTAssertEqual(bytes, ascii[chunk..<(chunk + 8)].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        }
    }

    func testKnownFieldNamesMatchAnyCaseButNothingElse() {
        func lookup(_ s: [UInt8]) -> String? {
            (s + [0, 0, 0, 0, 0, 0, 0, 0]).withUnsafeBytes { KnownFieldNames.lookup($0.baseAddress!, 0, s.count)?.name }
        }
        XCTAssertEqual(lookup(Array("Content-Length".utf8)), "content-length")
        XCTAssertEqual(lookup(Array("UPGRADE-INSECURE-REQUESTS".utf8)), "upgrade-insecure-requests")
        XCTAssertEqual(lookup(Array("hOsT".utf8)), "host")
        XCTAssertNil(lookup(Array("Content-Lengtx".utf8)))
        // Bytes that become the literal under a naive `| 0x20` must not match.
        XCTAssertNil(lookup(Array("content\rlength".utf8)))
        XCTAssertNil(lookup(Array("Content\u{0D}Length".utf8)))
        XCTAssertNil(lookup([0x48, 0x4F, 0x53, 0xD4]))  // "HOS" + 0xD4
        XCTAssertNil(lookup(Array("Transfer-Encodin".utf8) + [0xC7]))
    }
}
