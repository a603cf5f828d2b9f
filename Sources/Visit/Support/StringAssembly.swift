import Store

/// Byte copies into a string's storage under construction, so that a URL made of
/// several parts takes one allocation: on the visit path each `+` or `append` of a
/// `String` cost ~300 instructions, several times the bytes it moved.
///
/// Every function writes at `at` and returns the index after what it wrote; the buffer
/// is the one `String(unsafeUninitializedCapacity:initializingUTF8With:)` lends, and
/// none of them keeps it.
enum StringAssembly {
    static func copy(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        var o = at
        for c in bytes {
            out[o] = c
            o += 1
        }
        return o
    }

    /// Bytes `percentEncode` writes for `bytes`.
    static func percentEncodedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = bytes.count
        for c in bytes where !PercentCoding.isUnreserved(c) { count += 2 }
        return count
    }

    /// `PercentCoding.encode`: every byte outside RFC 3986's unreserved set as `%XX`.
    static func percentEncode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at: Int)
        -> Int
    {
        var o = at
        for c in bytes {
            if PercentCoding.isUnreserved(c) {
                out[o] = c
                o += 1
            } else {
                out[o] = UInt8(ascii: "%")
                out[o + 1] = hexDigit(c >> 4)
                out[o + 2] = hexDigit(c & 0x0F)
                o += 3
            }
        }
        return o
    }

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x41 + v - 10 }
}
