import CZlib

/// Writes a PNG (ISO/IEC 15948): the signature, `IHDR`, one `IDAT` of the zlib-compressed
/// rows (each led by filter type 0, none: a bilevel image gains nothing from the
/// others), `IEND`. The same image gives the same bytes.
public enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A 1-bit grayscale PNG of `image`.
    public static func encode(_ image: BilevelImage) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((image.bytesPerRow + 1) * image.height)
        image.bytes.withUnsafeBufferPointer { all in
            for y in 0..<image.height {
                raw.append(0)
                raw.append(contentsOf: all[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)])
            }
        }
        var header: [UInt8] = []
        append32(UInt32(image.width), to: &header)
        append32(UInt32(image.height), to: &header)
        // Bit depth 1, colour type 0 (grayscale), deflate, adaptive filtering, no interlace.
        header += [1, 0, 0, 0, 0]
        var png = signature
        chunk("IHDR", header, into: &png)
        chunk("IDAT", deflate(raw), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    /// A zlib stream of `data` at the best compression.
    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let rc = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in compress2(o.baseAddress, &length, i.baseAddress, uLong(i.count), 9) }
        }
        precondition(rc == Z_OK, "compress2 failed: \(rc)")  // only with too small a buffer or no memory
        out.removeSubrange(Int(length)...)
        return out
    }

    /// Length, type, data, and the CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        append32(UInt32(data.count), to: &png)
        png += typeBytes
        png += data
        var crc = crc32(0, nil, 0)
        crc = typeBytes.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        append32(UInt32(truncatingIfNeeded: crc), to: &png)
    }

    static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
