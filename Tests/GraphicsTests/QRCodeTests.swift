import XCTest

@testable import Graphics

/// The matrix libqrencode makes: its size per version, the three finder patterns, the
/// smallest version for the text, and the same modules every time.
final class QRCodeTests: XCTestCase {
    static let url = "https://go.example.com/invite"

    func testTheWidthFollowsTheVersion() throws {
        for level in QRCode.ErrorCorrection.allCases {
            let code = try QRCode(text: Self.url, errorCorrection: level)
            XCTAssertEqual(code.width, 17 + 4 * code.version, "\(level)")
        }
    }

    func testAHigherLevelNeverMakesASmallerCode() throws {
        let widths = try QRCode.ErrorCorrection.allCases.map { try QRCode(text: Self.url, errorCorrection: $0).width }
        XCTAssertEqual(widths, widths.sorted())
        XCTAssertLessThan(widths[0], widths[3], "H needs more modules than L for 29 bytes")
    }

    func testTheThreeFinderPatternsAreInTheirCorners() throws {
        let code = try QRCode(text: Self.url, errorCorrection: .medium)
        let w = code.width
        for (ox, oy) in [(0, 0), (w - 7, 0), (0, w - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    // A dark ring, a light ring, a dark 3x3 centre.
                    let ring = max(abs(x - 3), abs(y - 3))
                    XCTAssertEqual(code.isDark(x: ox + x, y: oy + y), ring != 2, "finder at \(ox),\(oy): \(x),\(y)")
                }
            }
        }
        // The light separator beside the top-left finder.
        for i in 0..<8 {
            XCTAssertFalse(code.isDark(x: 7, y: i), "separator column at \(i)")
            XCTAssertFalse(code.isDark(x: i, y: 7), "separator row at \(i)")
        }
    }

    func testTheSameTextMakesTheSameModules() throws {
        XCTAssertEqual(
            try QRCode(text: Self.url, errorCorrection: .quartile),
            try QRCode(text: Self.url, errorCorrection: .quartile))
        XCTAssertNotEqual(
            try QRCode(text: Self.url, errorCorrection: .quartile),
            try QRCode(text: Self.url + "2", errorCorrection: .quartile))
    }

    func testTheLongestShortURLFitsAtTheHighestLevel() throws {
        // https:// + a 253-character hostname + / + a 64-character key.
        let host = Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: ".").prefix(253)
        let url = "https://" + host + "/" + String(repeating: "K", count: 64)
        let code = try QRCode(text: url, errorCorrection: .high)
        XCTAssertLessThanOrEqual(code.version, 40)
    }

    func testTextBeyondVersion40IsRefused() {
        XCTAssertThrowsError(try QRCode(text: String(repeating: "x", count: 3_000), errorCorrection: .low)) { error in
            XCTAssertEqual(error as? QRCode.Failure, .tooLong)
        }
    }

    func testDarkRunsCoverExactlyTheDarkModules() throws {
        let code = try QRCode(text: Self.url, errorCorrection: .low)
        for y in 0..<code.width {
            var row = [Bool](repeating: false, count: code.width)
            for run in code.darkRuns(row: y) {
                XCTAssertGreaterThan(run.length, 0)
                for x in run.start..<(run.start + run.length) { row[x] = true }
            }
            XCTAssertEqual(row, (0..<code.width).map { code.isDark(x: $0, y: y) }, "row \(y)")
        }
    }
}
