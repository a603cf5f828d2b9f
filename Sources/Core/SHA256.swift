import CSystem

/// SHA-256, the project's one implementation: OpenSSL's (`csys_sha256`, one context
/// per thread), which uses the CPU's SHA extensions where it has them.
///
/// Every module that stores or looks up a hashed value (handoff tokens, keys,
/// idempotency keys, canonical requests, association ETags) goes through here, so that
/// the writer of a hash and its reader cannot drift apart. One function per input
/// shape, none generic over `Sequence`: a generic call across a module boundary cost
/// about ten times more than the digest itself. (callgrind cannot show OpenSSL's
/// speed: valgrind hides the SHA extensions, so OpenSSL takes its software path there.)
public enum SHA256 {
    /// Digest length in bytes.
    public static let digestCount = 32

    /// Writes the digest of `bytes` to `out` (32 bytes).
    public static func hash(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) {
        let rc = csys_sha256(bytes.baseAddress, bytes.count, out)
        // Only an OpenSSL without SHA-256 or out of memory gets here: nothing to serve with.
        precondition(rc == 0, "OpenSSL SHA-256 failed")
    }

    /// The digest of `bytes` (32 bytes).
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: digestCount) { out, count in
            hash(bytes, into: out.baseAddress!)
            count = digestCount
        }
    }

    public static func hash(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBytes { hash($0) } }

    public static func hash(_ bytes: ArraySlice<UInt8>) -> [UInt8] { bytes.withUnsafeBytes { hash($0) } }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        if let d = text.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return d }
        return hash(Array(text.utf8))
    }

    /// Lower-case hex of a digest (or of any bytes), for logs of non-secret values and tests.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
