/// A QR code as a black-and-white PNG of at least `size` × `size` pixels: every module
/// the same whole number of pixels (crisp when shown at its size), the leftover pixels
/// added to the light margin around it, so the code sits in the middle. A code with
/// more modules (margin included) than `size` gets one pixel per module: the image is
/// then that many pixels wide instead of shrinking the modules to nothing.
public enum QRCodePNG {
    /// - Parameters:
    ///   - margin: the light quiet zone around the code, in modules (4 is the standard's).
    ///   - size: the image's width and height in pixels (at least; see the type).
    public static func render(_ code: QRCode, margin: Int, size: Int) -> [UInt8] {
        let modules = code.width + 2 * margin
        let scale = max(1, size / max(modules, 1))
        let side = max(size, modules * scale)
        let offset = (side - code.width * scale) / 2
        var image = BilevelImage(width: side, height: side)
        for y in 0..<code.width {
            var row = image.blankRow()
            for run in code.darkRuns(row: y) {
                BilevelImage.darken(&row, from: offset + run.start * scale, count: run.length * scale)
            }
            for dy in 0..<scale { image.setRow(offset + y * scale + dy, row) }
        }
        return PNGEncoder.encode(image)
    }
}
