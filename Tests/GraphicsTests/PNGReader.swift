import CZlib

@testable import Graphics

/// A reader of exactly what `PNGEncoder` writes (1-bit grayscale, filter 0, one or more
/// IDAT chunks), checking every chunk's CRC, so that the tests see the pixels a viewer
/// would, not the encoder's own idea of them.
struct PNGReader {
    enum Failure: Error, Equatable {
        case signature, truncated, crc(String), header, inflate(Int32), filter(UInt8)
    }

    let width: Int
    let height: Int
    /// Row by row, true for a black pixel.
    let pixels: [Bool]
    /// Chunk types in file order.
    let chunks: [String]

    init(_ png: [UInt8]) throws {
        guard png.count > 8, Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure.signature
        }
        var at = 8
        var chunks: [String] = []
        var header: [UInt8] = []
        var data: [UInt8] = []
        func u32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        while at < png.count {
            guard at + 12 <= png.count else { throw Failure.truncated }
            let length = u32(at)
            guard at + 12 + length <= png.count else { throw Failure.truncated }
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = Array(png[(at + 8)..<(at + 8 + length)])
            let stored = UInt(u32(at + 8 + length))
            let computed = Array(png[(at + 4)..<(at + 8 + length)]).withUnsafeBufferPointer {
                crc32(0, $0.baseAddress, uInt($0.count))
            }
            guard stored == computed else { throw Failure.crc(type) }
            chunks.append(type)
            if type == "IHDR" { header = body }
            if type == "IDAT" { data += body }
            at += 12 + length
        }
        guard header.count == 13, header[8] == 1, header[9] == 0, header[12] == 0 else { throw Failure.header }
        let width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        let height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
        let stride = (width + 7) / 8
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLongf(raw.count)
        let rc = raw.withUnsafeMutableBufferPointer { r in
            data.withUnsafeBufferPointer { d in uncompress(r.baseAddress, &rawLength, d.baseAddress, uLong(d.count)) }
        }
        guard rc == Z_OK, Int(rawLength) == raw.count else { throw Failure.inflate(rc) }
        var pixels: [Bool] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            let row = y * (stride + 1)
            guard raw[row] == 0 else { throw Failure.filter(raw[row]) }
            for x in 0..<width { pixels.append(raw[row + 1 + x / 8] & (0x80 >> UInt8(x % 8)) == 0) }
        }
        self.width = width
        self.height = height
        self.pixels = pixels
        self.chunks = chunks
    }

    func isBlack(x: Int, y: Int) -> Bool { pixels[y * width + x] }
}
