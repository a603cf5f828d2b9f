/// A black-and-white image as PNG stores a 1-bit grayscale one: each row `(width + 7) / 8`
/// bytes, the leftmost pixel in the high bit, a set bit light (white) and a clear bit dark.
public struct BilevelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row after row, `bytesPerRow` each.
    public private(set) var bytes: [UInt8]

    public var bytesPerRow: Int { (width + 7) / 8 }

    /// An all-light image.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "BilevelImage: empty")
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0xFF, count: (width + 7) / 8 * height)
    }

    /// A light row to draw into and hand to `setRow`.
    public func blankRow() -> [UInt8] { [UInt8](repeating: 0xFF, count: bytesPerRow) }

    /// Makes `count` pixels of `row` dark from column `from`.
    public static func darken(_ row: inout [UInt8], from: Int, count: Int) {
        for x in from..<(from + count) { row[x >> 3] &= ~(0x80 >> UInt8(x & 7)) }
    }

    public mutating func setRow(_ y: Int, _ row: [UInt8]) {
        precondition(row.count == bytesPerRow, "BilevelImage: row of \(row.count) bytes")
        bytes.replaceSubrange((y * bytesPerRow)..<((y + 1) * bytesPerRow), with: row)
    }

    public func isDark(x: Int, y: Int) -> Bool {
        bytes[y * bytesPerRow + x >> 3] & (0x80 >> UInt8(x & 7)) == 0
    }
}
