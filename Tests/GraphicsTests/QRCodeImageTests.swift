import XCTest

@testable import Graphics

/// The SVG and PNG renderings: the same module matrix, crisp, the margin and size asked
/// for, and the same bytes for the same code.
final class QRCodeImageTests: XCTestCase {
    private func code(_ level: QRCode.ErrorCorrection = .medium) throws -> QRCode {
        try QRCode(text: QRCodeTests.url, errorCorrection: level)
    }

    // MARK: PNG

    func testThePNGDecodesToTheModulesScaledAndCentred() throws {
        let code = try code()
        let png = try PNGReader(QRCodePNG.render(code, margin: 4, size: 300))
        XCTAssertEqual(png.chunks, ["IHDR", "IDAT", "IEND"])
        XCTAssertEqual(png.width, 300)
        XCTAssertEqual(png.height, 300)
        let modules = code.width + 8
        let scale = 300 / modules
        let offset = (300 - code.width * scale) / 2
        for y in 0..<300 {
            for x in 0..<300 {
                let mx = x - offset
                let my = y - offset
                let inside = mx >= 0 && my >= 0 && mx < code.width * scale && my < code.width * scale
                let expected = inside && code.isDark(x: mx / scale, y: my / scale)
                guard png.isBlack(x: x, y: y) == expected else {
                    return XCTFail("pixel \(x),\(y): \(png.isBlack(x: x, y: y)), module \(mx / scale),\(my / scale)")
                }
            }
        }
    }

    func testTheMarginIsWhiteAndAtLeastAskedFor() throws {
        let code = try code()
        for margin in [0, 1, 4, 16] {
            let png = try PNGReader(QRCodePNG.render(code, margin: margin, size: 1_024))
            let scale = 1_024 / (code.width + 2 * margin)
            let border = (1_024 - code.width * scale) / 2
            XCTAssertGreaterThanOrEqual(border, margin * scale, "margin \(margin)")
            for i in 0..<1_024 {
                for j in 0..<border {
                    XCTAssertFalse(png.isBlack(x: i, y: j) || png.isBlack(x: j, y: i), "margin \(margin) at \(i),\(j)")
                }
            }
            // The top-left finder's corner is the first dark pixel.
            XCTAssertTrue(png.isBlack(x: border, y: border), "margin \(margin)")
        }
    }

    func testASizeBelowTheModulesGivesOnePixelPerModule() throws {
        let code = try code(.high)
        let png = try PNGReader(QRCodePNG.render(code, margin: 16, size: 64))
        XCTAssertEqual(png.width, code.width + 32)
        XCTAssertEqual(png.height, code.width + 32)
        for y in 0..<code.width {
            for x in 0..<code.width { XCTAssertEqual(png.isBlack(x: x + 16, y: y + 16), code.isDark(x: x, y: y)) }
        }
    }

    func testThePNGIsTheSameBytesEveryTime() throws {
        let a = QRCodePNG.render(try code(), margin: 4, size: 512)
        XCTAssertEqual(a, QRCodePNG.render(try code(), margin: 4, size: 512))
        XCTAssertLessThan(a.count, 2_000, "a bilevel code compresses to little")
    }

    func testTheEncoderWritesAnyBilevelImage() throws {
        var image = BilevelImage(width: 13, height: 3)
        var row = image.blankRow()
        BilevelImage.darken(&row, from: 2, count: 9)
        image.setRow(1, row)
        let png = try PNGReader(PNGEncoder.encode(image))
        XCTAssertEqual(png.width, 13)
        XCTAssertEqual(png.pixels, (0..<39).map { i in i / 13 == 1 && (2..<11).contains(i % 13) })
        XCTAssertEqual((0..<13).map { image.isDark(x: $0, y: 1) }, (0..<13).map { (2..<11).contains($0) })
    }

    // MARK: SVG

    /// The module matrix an SVG's path draws, from its `M x y h n v 1 h -n z` rectangles.
    private func modules(ofSVG svg: String, side: Int) -> [[Bool]] {
        var grid = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side)
        guard let d = svg.range(of: " d=\"")?.upperBound, let end = svg[d...].firstIndex(of: "\"") else { return grid }
        for rect in svg[d..<end].split(separator: "z") {
            let numbers = rect.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            guard numbers.count == 5, numbers[3] == 1, numbers[4] == -numbers[2] else {
                XCTFail("not a module run: \(rect)")
                return grid
            }
            for x in numbers[0]..<(numbers[0] + numbers[2]) { grid[numbers[1]][x] = true }
        }
        return grid
    }

    func testTheSVGDrawsTheModulesInsideTheMargin() throws {
        let code = try code()
        let svg = String(decoding: QRCodeSVG.render(code, margin: 2, size: 256), as: UTF8.self)
        let side = code.width + 4
        XCTAssertTrue(
            svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="256" height="256" "#))
        XCTAssertTrue(svg.contains(#"viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges""#))
        XCTAssertTrue(svg.contains(##"<rect width="\##(side)" height="\##(side)" fill="#ffffff"/>"##))
        let grid = modules(ofSVG: svg, side: side)
        XCTAssertEqual(grid.count, side)
        for y in 0..<side {
            for x in 0..<side {
                let inside = (2..<(code.width + 2)).contains(x) && (2..<(code.width + 2)).contains(y)
                XCTAssertEqual(grid[y][x], inside && code.isDark(x: x - 2, y: y - 2), "\(x),\(y)")
            }
        }
    }

    func testTheSVGAndThePNGShowTheSameModules() throws {
        let code = try code(.quartile)
        let side = code.width + 8
        let grid = modules(
            ofSVG: String(decoding: QRCodeSVG.render(code, margin: 4, size: side), as: UTF8.self), side: side)
        let png = try PNGReader(QRCodePNG.render(code, margin: 4, size: side))
        XCTAssertEqual(png.width, side)
        for y in 0..<side {
            for x in 0..<side { XCTAssertEqual(grid[y][x], png.isBlack(x: x, y: y), "\(x),\(y)") }
        }
    }

    func testTheSVGIsTheSameBytesEveryTime() throws {
        XCTAssertEqual(
            QRCodeSVG.render(try code(), margin: 4, size: 512), QRCodeSVG.render(try code(), margin: 4, size: 512))
    }
}
