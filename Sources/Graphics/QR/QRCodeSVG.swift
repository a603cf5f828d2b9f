/// A QR code as an SVG document: one path of the dark modules on a light square, in
/// module units (`viewBox`), drawn `size` pixels wide with `shape-rendering="crispEdges"`
/// so that viewers do not blur the module edges. Each run of dark modules in a row is one
/// rectangle (`M x y h n v 1 h -n z`): a code of 2 to 8 KB for a short link.
public enum QRCodeSVG {
    /// - Parameters:
    ///   - margin: the light quiet zone around the code, in modules (4 is the standard's).
    ///   - size: the document's `width` and `height` in pixels.
    public static func render(_ code: QRCode, margin: Int, size: Int) -> [UInt8] {
        let side = code.width + 2 * margin
        var out = ""
        out.reserveCapacity(256 + code.width * code.width)
        out += #"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\#(size)" height="\#(size)" "#
        out += #"viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges">"#
        out += ##"<rect width="\##(side)" height="\##(side)" fill="#ffffff"/><path fill="#000000" d=""##
        for y in 0..<code.width {
            for run in code.darkRuns(row: y) {
                out += "M\(run.start + margin) \(y + margin)h\(run.length)v1h-\(run.length)z"
            }
        }
        out += "\"/></svg>\n"
        return Array(out.utf8)
    }
}
