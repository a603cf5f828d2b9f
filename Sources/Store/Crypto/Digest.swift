import CSystem

/// SHA-256 for the hot paths (handoff keys; the resolver's key, request and
/// idempotency hashes), through OpenSSL, which uses the CPU's SHA extensions where
/// it has them (`csys_sha256`).
///
/// Byte-for-byte the same digest as `Core.SHA256.hash` (a test pins it): Core's
/// pure-Swift version, generic over `Sequence` across a module boundary, costs about
/// ten times more per call; libsodium's portable one, used here before, 362 ns for a
/// 48-byte handoff token against 134 ns (a C loop of a million on this machine).
/// callgrind cannot show the difference: valgrind hides the SHA extensions, so
/// OpenSSL takes its software path under it.
public enum Digest {
    public static let sha256Bytes = 32

    /// Writes the digest of `bytes` to `out` (32 bytes).
    public static func sha256(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) {
        let rc = csys_sha256(bytes.baseAddress, bytes.count, out)
        // Only an OpenSSL without SHA-256 or out of memory gets here: nothing to serve with.
        precondition(rc == 0, "OpenSSL SHA-256 failed")
    }

    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: sha256Bytes) { out, count in
            sha256(bytes, into: out.baseAddress!)
            count = sha256Bytes
        }
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { sha256($0) }
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func sha256(_ text: String) -> [UInt8] {
        if let d = text.utf8.withContiguousStorageIfAvailable({ sha256(UnsafeRawBufferPointer($0)) }) { return d }
        return sha256(Array(text.utf8))
    }
}
