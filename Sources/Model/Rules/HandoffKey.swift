/// The storage key of a handoff (`Handoff.tokenHash`), chosen so that the
/// handoffs table grows at its end instead of at random places.
///
/// SHA-256 of a random token is a random key: every new handoff then dirties
/// a different page of the table, and each commit writes one 4 KiB WAL page
/// per handoff (bench/store measures about three times fewer durable writes
/// per second that way). If the token's 32 bytes start with the time instead
/// (6 bytes of big-endian milliseconds, then 26 random bytes: 208 bits, still
/// unguessable, and still `bqmh_` + 43 base64url characters), the key below
/// starts with that time and new rows land together at the end.
///
/// The key is the token's first 6 bytes (not secret: the click's time, which
/// the click row holds anyway) followed by SHA-256 of the whole token string,
/// 38 bytes. A token made the old way (all random) still works: its key is
/// merely random.
public enum HandoffKey {
    public static let timeBytes = 6
    public static let tokenBytes = 32
    public static let keyBytes = timeBytes + 32

    /// Byte `i` (0..<timeBytes) of `milliseconds` big-endian in `timeBytes` bytes: the
    /// start of every token body and of its key.
    @inline(__always)
    public static func timeByte(_ milliseconds: UInt64, _ i: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: milliseconds >> UInt64(8 * (timeBytes - 1 - i)))
    }

    /// A token body: `milliseconds` big-endian in 6 bytes, then 26 bytes of `random`.
    public static func tokenBody(milliseconds: UInt64, random: [UInt8]) -> [UInt8] {
        precondition(random.count >= tokenBytes - timeBytes, "a handoff token needs 26 random bytes")
        return (0..<timeBytes).map { timeByte(milliseconds, $0) } + random[0..<(tokenBytes - timeBytes)]
    }

    /// The first `timeBytes` of every key made at `milliseconds` (clamped at 0): a
    /// key sorts below this prefix exactly when it was made before `milliseconds`.
    public static func timePrefix(milliseconds: Int64) -> [UInt8] {
        let ms = UInt64(max(milliseconds, 0))
        return (0..<timeBytes).map { timeByte(ms, $0) }
    }
}
