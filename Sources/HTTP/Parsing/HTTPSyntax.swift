#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte classes and small scanners of the HTTP/1.1 grammar (RFC 9110 §5.6, RFC 9112).
///
/// Everything works on raw offsets into the connection's input so the parser can keep
/// offsets across calls (the caller may move its buffer between calls, never its content).
enum HTTPSyntax {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let sp: UInt8 = 0x20
    static let htab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let comma: UInt8 = 0x2C
    static let equals: UInt8 = 0x3D
    static let dquote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    /// / DIGIT / ALPHA, as two 64-bit masks (bytes 0-63 and 64-127) so the test is branch-light.
    /// `ParserSyntaxTests` checks them against the grammar's list.
    static let tcharLow: UInt64 = 0x03ff_6cfa_0000_0000
    static let tcharHigh: UInt64 = 0x57ff_ffff_c7ff_fffe

    @inline(__always)
    static func isTokenChar(_ c: UInt8) -> Bool {
        if c < 64 { return (tcharLow >> UInt64(c)) & 1 == 1 }
        if c < 128 { return (tcharHigh >> UInt64(c &- 64)) & 1 == 1 }
        return false
    }

    /// field-vchar / SP / HTAB, with obs-text (0x80-0xFF) allowed as RFC 9110 §5.5 permits.
    /// Refuses NUL, CR, LF, DEL and every other control.
    @inline(__always)
    static func isFieldValueChar(_ c: UInt8) -> Bool {
        (c >= 0x20 && c != 0x7F) || c == htab
    }

    /// Bytes allowed in a request-target: visible ASCII. Controls, space, DEL and non-ASCII
    /// bytes (which a conforming client percent-encodes) are refused.
    @inline(__always)
    static func isTargetChar(_ c: UInt8) -> Bool {
        c > 0x20 && c < 0x7F
    }

    @inline(__always)
    static func isOWS(_ c: UInt8) -> Bool { c == sp || c == htab }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

    /// The value of a hex digit, or -1.
    @inline(__always)
    static func hexValue(_ c: UInt8) -> Int {
        if c &- 0x30 < 10 { return Int(c &- 0x30) }
        let l = c | 0x20
        if l &- 0x61 < 6 { return Int(l &- 0x61) + 10 }
        return -1
    }

    @inline(__always)
    static func byte(_ base: UnsafeRawPointer, _ i: Int) -> UInt8 {
        base.load(fromByteOffset: i, as: UInt8.self)
    }

    /// Offset of the first LF in `[from, end)`, or nil. memchr is vectorised by the C library,
    /// which matters for long header values and for bodies scanned as trailers.
    @inline(__always)
    static func findLF(_ base: UnsafeRawPointer, from: Int, to end: Int) -> Int? {
        guard from < end, let p = memchr(base + from, Int32(lf), end - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(p))
    }

    /// True when `[start, end)` equals `lowercaseLiteral` ignoring ASCII case.
    /// `lowercaseLiteral` must be lower-case ASCII.
    @inline(__always)
    static func equalsIgnoringCase(
        _ base: UnsafeRawPointer, _ start: Int, _ end: Int, _ lowercaseLiteral: StaticString
    ) -> Bool {
        let n = lowercaseLiteral.utf8CodeUnitCount
        guard end - start == n else { return false }
        let lit = lowercaseLiteral.utf8Start
        for i in 0..<n {
            let c = byte(base, start + i)
            let l = c &- 0x41 < 26 ? c | 0x20 : c
            if l != lit[i] { return false }
        }
        return true
    }

    /// A String from raw bytes (already validated, so decoding repairs nothing in practice).
    @inline(__always)
    static func string(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    /// A lower-cased String from token bytes (ASCII), written in place eight bytes at a time:
    /// one allocation at most (none for names of up to 15 bytes, which Swift stores inline).
    @inline(__always)
    static func lowercasedTokenString(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> String {
        let n = end - start
        return String(unsafeUninitializedCapacity: n) { out in
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            var i = 0
            while n - i >= 8 {
                let x = base.loadUnaligned(fromByteOffset: start + i, as: UInt64.self)
                dst.storeBytes(of: lowercasedASCII(x), toByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < n {
                let c = byte(base, start + i)
                dst.storeBytes(of: c &- 0x41 < 26 ? c | 0x20 : c, toByteOffset: i, as: UInt8.self)
                i += 1
            }
            return n
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Eight ASCII bytes with A-Z lower-cased (bytes must be < 0x80, as token bytes are).
    @inline(__always)
    static func lowercasedASCII(_ x: UInt64) -> UInt64 {
        let atLeastA = x &+ ones &* (0x80 - 0x41)
        let aboveZ = x &+ ones &* (0x80 - 0x5B)
        let upper = atLeastA & ~aboveZ & highs
        return x | (upper >> 2)
    }

    /// Whether some byte of `x` is below `n` (n <= 128); exact, from "Bit Twiddling Hacks".
    @inline(__always)
    private static func hasByteBelow(_ x: UInt64, _ n: UInt8) -> Bool {
        (x &- ones &* UInt64(n)) & ~x & highs != 0
    }

    @inline(__always)
    private static func hasByte(_ x: UInt64, _ b: UInt8) -> Bool {
        hasByteBelow(x ^ (ones &* UInt64(b)), 1)
    }

    /// True when every byte of `[start, end)` passes `isFieldValueChar`. Checks eight bytes at
    /// a time and looks closer only at words holding a control or DEL (HTAB, or an error).
    static func allFieldValueChars(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while end - i >= 8 {
            let x = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if hasByteBelow(x, 0x20) || hasByte(x, 0x7F) {
                for j in i..<(i + 8) where !isFieldValueChar(byte(base, j)) { return false }
            }
            i += 8
        }
        while i < end {
            guard isFieldValueChar(byte(base, i)) else { return false }
            i += 1
        }
        return true
    }

    /// End of the run of `isTargetChar` bytes from `start`, eight at a time while clean.
    static func targetEnd(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int {
        var i = start
        while end - i >= 8 {
            let x = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if hasByteBelow(x, 0x21) || hasByte(x, 0x7F) || x & highs != 0 { break }
            i += 8
        }
        while i < end && isTargetChar(byte(base, i)) { i += 1 }
        return i
    }

    /// End of a quoted-string starting at `start` (which must hold DQUOTE), or nil when it is
    /// unterminated or holds a forbidden byte (RFC 9110 §5.6.4).
    static func quotedStringEnd(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int? {
        var i = start + 1
        while i < end {
            let c = byte(base, i)
            if c == dquote { return i + 1 }
            if c == backslash {
                guard i + 1 < end, isFieldValueChar(byte(base, i + 1)) else { return nil }
                i += 2
                continue
            }
            guard isFieldValueChar(c) else { return nil }
            i += 1
        }
        return nil
    }

    /// End of the run of token chars starting at `start`.
    @inline(__always)
    static func tokenEnd(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int {
        var i = start
        while i < end && isTokenChar(byte(base, i)) { i += 1 }
        return i
    }

    @inline(__always)
    static func skipOWS(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int {
        var i = start
        while i < end && isOWS(byte(base, i)) { i += 1 }
        return i
    }
}
