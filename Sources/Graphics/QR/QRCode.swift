import CQRencode

#if canImport(Glibc)
import Glibc
#endif

/// A QR code's modules (ISO/IEC 18004), made by libqrencode: `width` × `width` squares,
/// dark or light, without the quiet zone (the renderers add it as `margin`).
///
/// ```swift
/// let code = try QRCode(text: "https://go.example.com/invite", errorCorrection: .medium)
/// let svg = QRCodeSVG.render(code, margin: 4, size: 512)
/// ```
public struct QRCode: Sendable, Equatable {
    /// How much of the code can be damaged and still read (7, 15, 25, 30 %): a higher
    /// level makes a denser code for the same text.
    public enum ErrorCorrection: String, Sendable, CaseIterable {
        case low = "L"
        case medium = "M"
        case quartile = "Q"
        case high = "H"

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    public enum Failure: Error, Equatable {
        /// More than a version-40 code holds at this level (about 2,300 bytes at `low`).
        case tooLong
    }

    /// Modules per side (21 for version 1, 4 more per version).
    public let width: Int
    /// The symbol version, 1 through 40: the smallest that holds the text.
    public let version: Int
    /// Row by row, true for a dark module.
    private let modules: [Bool]

    /// The smallest code for `text` at `errorCorrection`, each part of the text in the
    /// densest mode it allows (numeric, alphanumeric, bytes), letters kept as they are.
    public init(text: String, errorCorrection: ErrorCorrection) throws(Failure) {
        guard let code = QRcode_encodeString(text, 0, errorCorrection.level, QR_MODE_8, 1) else {
            throw .tooLong
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // Bit 0 is the module's colour; the others say what libqrencode used it for.
        self.init(width: width, version: Int(code.pointee.version), modules: data.map { $0 & 1 == 1 })
    }

    /// A code from its modules (tests, and renderers' own checks).
    init(width: Int, version: Int, modules: [Bool]) {
        precondition(modules.count == width * width, "QRCode: \(modules.count) modules for width \(width)")
        self.width = width
        self.version = version
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` (from the top left, 0-based) is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * width + x] }

    /// The dark runs of row `y`: (first column, length), left to right.
    func darkRuns(row y: Int) -> [(start: Int, length: Int)] {
        var runs: [(Int, Int)] = []
        var x = 0
        while x < width {
            guard isDark(x: x, y: y) else {
                x += 1
                continue
            }
            let start = x
            while x < width && isDark(x: x, y: y) { x += 1 }
            runs.append((start, x - start))
        }
        return runs
    }
}
