import Core
import Graphics
import Model
import Store

/// `GET /api/v1/links/{id}/qr.svg` and `/qr.png`: the link's short URL as a QR code.
///
/// Made on each request (a few hundred microseconds: nothing to cache on the server);
/// the answer may be kept by the caller for `cacheSeconds`, since a link's short URL
/// rarely changes. `size` is the image's width in pixels, `margin` the quiet zone in
/// modules, `level` the error correction.
enum LinkQRCodeOperations {
    static let sizes = 64...2_048
    static let defaultSize = 512
    static let margins = 0...16
    static let defaultMargin = 4
    static let defaultLevel = QRCode.ErrorCorrection.medium
    static let cacheSeconds = 300
    static let query: Set<String> = ["size", "margin", "level"]

    static func svg(_ call: ManagementCall, _ reader: any LinkReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let (link, code, size, margin) = try prepare(call, reader)
        return answer(QRCodeSVG.render(code, margin: margin, size: size), "image/svg+xml", link, "svg")
    }

    static func png(_ call: ManagementCall, _ reader: any LinkReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let (link, code, size, margin) = try prepare(call, reader)
        return answer(QRCodePNG.render(code, margin: margin, size: size), "image/png", link, "png")
    }

    /// The link (404 first, as every route with an id), then the parameters (400 naming one).
    private static func prepare(_ call: ManagementCall, _ reader: any LinkReading) throws -> (
        Link, QRCode, Int, Int
    ) {
        let link = try LinkOperations.existing(call.parameter("id"), reader)
        let size = try call.query.integer("size", in: sizes, default: defaultSize)
        let margin = try call.query.integer("margin", in: margins, default: defaultMargin)
        var level = defaultLevel
        if let text = call.query["level"] {
            guard let chosen = QRCode.ErrorCorrection(rawValue: text) else {
                throw ManagementError.malformed(FieldProblem("level", "must be L, M, Q or H"))
            }
            level = chosen
        }
        return (link, try code(link, level: level), size, margin)
    }

    /// The QR code of `link`'s short URL.
    static func code(_ link: Link, level: QRCode.ErrorCorrection = defaultLevel) throws -> QRCode {
        // A short URL is at most some 330 bytes; a version-40 code holds over 1,200 at H.
        try QRCode(text: link.shortUrl, errorCorrection: level)
    }

    private static func answer(_ bytes: [UInt8], _ type: String, _ link: Link, _ suffix: String)
        -> ManagementAnswer
    {
        ManagementAnswer(
            200,
            media: .init(
                contentType: type, bytes: bytes, cacheControl: "private, max-age=\(cacheSeconds)",
                filename: "qr-\(link.key).\(suffix)"))
    }
}
