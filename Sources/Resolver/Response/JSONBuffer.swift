import Core

/// Writes the resolver's fixed-shape JSON documents (stored responses,
/// receipt claims, canonical requests) straight into bytes.
///
/// Same output as `Core.JSONWriter` for the same members in the same order
/// (tests pin it); strings without characters to escape are copied in one go
/// instead of byte by byte. Arbitrary values (link metadata) go through
/// `JSONWriter`.
struct JSONBuffer {
    var bytes: [UInt8]

    init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `withUTF8` rather than the generic `withContiguousStorageIfAvailable`, whose
    /// metadata look-ups cost more than the copy itself.
    mutating func string(_ s: String) {
        var s = s
        let done = s.withUTF8 { buf in
            guard JSONBuffer.needsNoEscape(buf) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: buf)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !done { JSONWriter.writeString(s, into: &bytes) }
    }

    /// No control character, quote, backslash or DEL: eight bytes per step (a receipt
    /// is about 700 of them), the last step overlapping the one before it rather than
    /// finishing byte by byte. Each test is the exact "some byte is zero / below n"
    /// word trick, so a false answer only means the careful path.
    static func needsNoEscape(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = buf.count
        guard n > 0, let base = buf.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        @inline(__always) func isPlain(at offset: Int) -> Bool {
            let x = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            return (x &- ones &* 0x20) & ~x & highs == 0 && !hasZero(x ^ (ones &* 0x22))
                && !hasZero(x ^ (ones &* 0x5C)) && !hasZero(x ^ (ones &* 0x7F))
        }
        if n >= 8 {
            var i = 0
            while i + 8 <= n {
                guard isPlain(at: i) else { return false }
                i += 8
            }
            return i == n || isPlain(at: n - 8)
        }
        for i in 0..<n {
            let c = base[i]
            if c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return false }
        }
        return true
    }

    mutating func string(orNull s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    mutating func int(_ v: Int64) { JSONWriter.writeInteger(Int(v), into: &bytes) }

    mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    mutating func value(_ v: JSONValue) { JSONWriter().write(v, into: &bytes) }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }
}
