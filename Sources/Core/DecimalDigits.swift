/// The decimal digits of an unsigned integer, written on the stack: what a response's
/// `Content-Length`, a JSON number and a log line's numbers are made of, without a
/// `String` per number.
public enum DecimalDigits {
    /// Calls `body` with the digits of `value` (no sign, no leading zeros; "0" for 0).
    @inline(__always)
    public static func with<R>(_ value: UInt64, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var v = value
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        return try withUnsafeMutableBytes(of: &digits) { d in
            var start = d.count
            repeat {
                start -= 1
                d[start] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
            } while v > 0
            return try body(UnsafeRawBufferPointer(rebasing: d[start...]))
        }
    }
}
